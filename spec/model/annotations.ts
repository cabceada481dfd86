import type { PersonKind } from './dsl.js';

/**
 * Upstream facts the pinned extract does not carry, which a generic implementation needs:
 * which keys a PUT may change, the education organization hierarchy, person records and the
 * associations that reach them, and where upstream names a reference's key field apart
 * (a merged or role-named key) rather than unifying it with a same-named field. They describe
 * Ed-Fi DS 5.2 as ODS/API 7.3 and DMS serve it (research: dms-apischema.md §2-§3).
 */

/** allowIdentityUpdates: PUT may change the natural key, cascading into referrers. */
export const updatable: readonly string[] = [
  'classPeriod', 'section', 'session', 'staffSectionAssociation', 'studentSchoolAssociation', 'studentSectionAssociation',
];

/** educationOrganizationHierarchy: each member's references to its parent organizations. */
export const educationOrganizationParents: Readonly<Record<string, string[]>> = {
  school: ['localEducationAgencyReference'],
  localEducationAgency: ['parentLocalEducationAgencyReference', 'stateEducationAgencyReference', 'educationServiceCenterReference'],
  educationServiceCenter: ['stateEducationAgencyReference'],
  communityProvider: ['communityOrganizationReference'],
  organizationDepartment: ['parentEducationOrganizationReference'],
};

/** Person records (securable Student, Staff, Contact). */
export const persons: Readonly<Record<string, PersonKind>> = { student: 'student', staff: 'staff', contact: 'contact' };

/** Associations that make a person reachable from an education organization. */
export const relationships: Readonly<Record<string, { person: PersonKind; via: string }>> = {
  studentSchoolAssociation: { person: 'student', via: 'studentReference' },
  studentEducationOrganizationAssociation: { person: 'student', via: 'studentReference' },
  studentContactAssociation: { person: 'contact', via: 'contactReference' },
  staffSchoolAssociation: { person: 'staff', via: 'staffReference' },
  staffEducationOrganizationAssignmentAssociation: { person: 'staff', via: 'staffReference' },
  staffEducationOrganizationEmploymentAssociation: { person: 'staff', via: 'staffReference' },
};

export const schoolYearEnumeration = 'schoolYearType';

/**
 * Key names that upstream keeps apart. A role-named reference (`parentLocalEducationAgencyReference`)
 * prefixes its fields with the role by rule (compile.ts); these are the exceptions and the
 * non-role cases, as upstream's query parameters name them:
 * - every reference to a program names the program's organization `programEducationOrganizationId`;
 * - a course transcript's (and a graduation plan's) course organization is `courseEducationOrganizationId`,
 *   an intervention prescription's organization `interventionPrescriptionEducationOrganizationId`,
 *   a local account's chart of account `chartOfAccountIdentifier` / `chartOfAccountEducationOrganizationId`,
 *   a student intervention's cohort organization `cohortEducationOrganizationId`, an objective
 *   assessment's items `assessmentItemIdentificationCode`, a grade's period year `gradingPeriodSchoolYear`;
 * - a chart of account's dimension codes are `<dimension>Code`;
 * - a section's location belongs to `locationSchoolId` (merged with locationSchoolReference);
 * - a grading period that identifies a report card or a competency objective names its school
 *   and year `gradingPeriodSchoolId`, `gradingPeriodSchoolYear`;
 * - where upstream merges a role-named reference's field with the document's own, the name stays.
 */
export const queryNamesByTarget: Readonly<Record<string, Record<string, string>>> = {
  program: { educationOrganizationId: 'programEducationOrganizationId' },
  interventionPrescription: { educationOrganizationId: 'interventionPrescriptionEducationOrganizationId' },
};

export const queryNamesByReference: Readonly<Record<string, Record<string, string>>> = {
  'courseTranscript $.courseReference': { educationOrganizationId: 'courseEducationOrganizationId' },
  'chartOfAccount $.balanceSheetDimensionReference': { code: 'balanceSheetCode' },
  'chartOfAccount $.functionDimensionReference': { code: 'functionCode' },
  'chartOfAccount $.fundDimensionReference': { code: 'fundCode' },
  'chartOfAccount $.objectDimensionReference': { code: 'objectCode' },
  'chartOfAccount $.operationalUnitDimensionReference': { code: 'operationalUnitCode' },
  'chartOfAccount $.programDimensionReference': { code: 'programCode' },
  'chartOfAccount $.projectDimensionReference': { code: 'projectCode' },
  'chartOfAccount $.sourceDimensionReference': { code: 'sourceCode' },
  'section $.locationReference': { schoolId: 'locationSchoolId' },
  'reportCard $.gradingPeriodReference': { schoolId: 'gradingPeriodSchoolId', schoolYear: 'gradingPeriodSchoolYear' },
  'studentCompetencyObjective $.gradingPeriodReference': { schoolId: 'gradingPeriodSchoolId', schoolYear: 'gradingPeriodSchoolYear' },
  'objectiveAssessment $.assessmentItems[*].assessmentItemReference': { identificationCode: 'assessmentItemIdentificationCode' },
  'graduationPlan $.creditsByCourses[*].courses[*].courseReference': { educationOrganizationId: 'courseEducationOrganizationId' },
  'studentInterventionAssociation $.cohortReference': { educationOrganizationId: 'cohortEducationOrganizationId' },
  'localAccount $.chartOfAccountReference': { accountIdentifier: 'chartOfAccountIdentifier', educationOrganizationId: 'chartOfAccountEducationOrganizationId' },
  'grade $.gradingPeriodReference': { schoolYear: 'gradingPeriodSchoolYear' },
  'objectiveAssessment $.parentObjectiveAssessmentReference': { assessmentIdentifier: 'assessmentIdentifier', namespace: 'namespace' },
  'studentAssessmentRegistration $.scheduledStudentEducationOrganizationAssessmentAccommodationReference': { studentUniqueId: 'studentUniqueId' },
  'staffEducationOrganizationAssignmentAssociation $.employmentStaffEducationOrganizationEmploymentAssociationReference': { staffUniqueId: 'staffUniqueId' },
};

/**
 * Where the pinned extract (derived from the XSD) differs from what upstream serves: its generator
 * merged same-named identity fields, which the generated upstream client models carry
 * (EdFiGeneralStudentProgramAssociationReference: beginDate, educationOrganizationId,
 * programEducationOrganizationId, programName, programTypeDescriptor, studentUniqueId); and an
 * XSD minimum neither server enforces.
 */
export const extractCorrections: readonly { at: string; why: string }[] = [
  {
    at: 'descriptors $.namespace',
    why: 'the XSD gives Namespace at least 5 characters; neither ODS/API nor DMS requires more than one (decision 45)',
  },
  {
    at: 'reportCard $.grades[*].gradeReference.gradingPeriodSchoolYear',
    why: 'a grade is identified by its grading period\'s school year as well as its section\'s (EdFiGradeReference carries both)',
  },
  {
    at: 'studentCompetencyObjective $.generalStudentProgramAssociations[*].generalStudentProgramAssociationReference.programEducationOrganizationId',
    why: 'a general student program association is identified by its program\'s organization as well as its own',
  },
];
