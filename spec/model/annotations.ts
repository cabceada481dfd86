import type { PersonKind } from './dsl.js';
import type { DataStandard } from './upstream.js';

/**
 * Upstream facts the pinned extract does not carry, which a generic implementation needs:
 * which keys a PUT may change, the education organization hierarchy, person records and the
 * associations that reach them, and where upstream names a reference's key field apart
 * (a merged or role-named key) rather than unifying it with a same-named field. The named exports
 * describe Ed-Fi DS 5.2 as ODS/API 7.3 and DMS serve it (research: dms-apischema.md §2-§3);
 * `annotationsFor` gives them for each standard, 4.0 and 6.1 stated as their differences from 5.2.
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

/** Everything above, for one data standard. */
export interface StandardAnnotations {
  updatable: readonly string[];
  educationOrganizationParents: Readonly<Record<string, string[]>>;
  persons: Readonly<Record<string, PersonKind>>;
  relationships: Readonly<Record<string, { person: PersonKind; via: string }>>;
  schoolYearEnumeration: string;
  queryNamesByTarget: Readonly<Record<string, Record<string, string>>>;
  queryNamesByReference: Readonly<Record<string, Record<string, string>>>;
  extractCorrections: readonly { at: string; why: string }[];
}

const ds52: StandardAnnotations = {
  updatable, educationOrganizationParents, persons, relationships, schoolYearEnumeration, queryNamesByTarget, queryNamesByReference, extractCorrections,
};

const without = <T>(record: Readonly<Record<string, T>>, ...names: string[]): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !names.includes(k)));

/** The one correction every extract needs (its XSD source gives every standard's Namespace 5 characters). */
const namespaceCorrection = extractCorrections.filter((c) => c.at === 'descriptors $.namespace');

/**
 * DS 4.0 (research: upstream-shapes/versions.md, "DS 4.0 → DS 5.2"):
 * - `Parent` (key `parentUniqueId`) and `StudentParentAssociation` are what 5.2 renamed to
 *   `Contact` and `StudentContactAssociation`: the same person kind, reached through `parentReference`;
 * - `GradingPeriod` is keyed by `periodSequence`, which a grade's, report card's, competency
 *   objective's and learning objective's grading-period reference name `gradingPeriodSequence`,
 *   as they name its school year (the ODS columns GradingPeriodSequence, GradingPeriodSchoolYear;
 *   the extract's `gradeReference`, `studentCompetencyObjectiveReference` and
 *   `studentLearningObjectiveReference` carry those names);
 * - `StudentLearningObjective` (removed in 5.2) is keyed like `StudentCompetencyObjective`;
 * - no `StudentAssessmentRegistration` (added in 5.2);
 * - the extract already carries the two reference fields 5.2's lacked, so only the namespace
 *   correction remains.
 */
const ds40: StandardAnnotations = {
  ...ds52,
  persons: { ...without(persons, 'contact'), parent: 'contact' },
  relationships: {
    ...without(relationships, 'studentContactAssociation'),
    studentParentAssociation: { person: 'contact', via: 'parentReference' },
  },
  queryNamesByReference: {
    ...without(queryNamesByReference, 'studentAssessmentRegistration $.scheduledStudentEducationOrganizationAssessmentAccommodationReference'),
    'grade $.gradingPeriodReference': { periodSequence: 'gradingPeriodSequence', schoolYear: 'gradingPeriodSchoolYear' },
    'reportCard $.gradingPeriodReference': { periodSequence: 'gradingPeriodSequence', schoolId: 'gradingPeriodSchoolId', schoolYear: 'gradingPeriodSchoolYear' },
    'studentCompetencyObjective $.gradingPeriodReference': { periodSequence: 'gradingPeriodSequence', schoolId: 'gradingPeriodSchoolId', schoolYear: 'gradingPeriodSchoolYear' },
    'studentLearningObjective $.gradingPeriodReference': { periodSequence: 'gradingPeriodSequence', schoolId: 'gradingPeriodSchoolId', schoolYear: 'gradingPeriodSchoolYear' },
  },
  extractCorrections: namespaceCorrection,
};

/**
 * DS 6.1 (research: upstream-shapes/versions.md, "DS 5.2 → DS 6.1"):
 * - an objective assessment's parents are a collection (`parentObjectiveAssessments`), whose
 *   references share the document's own assessment as 5.2's single reference did;
 * - the extract already carries the two reference fields 5.2's lacked, so only the namespace
 *   correction remains.
 */
const ds61: StandardAnnotations = {
  ...ds52,
  queryNamesByReference: {
    ...without(queryNamesByReference, 'objectiveAssessment $.parentObjectiveAssessmentReference'),
    'objectiveAssessment $.parentObjectiveAssessments[*].parentObjectiveAssessmentReference': { assessmentIdentifier: 'assessmentIdentifier', namespace: 'namespace' },
  },
  extractCorrections: namespaceCorrection,
};

const byStandard: Readonly<Record<DataStandard, StandardAnnotations>> = { '4.0': ds40, '5.2': ds52, '6.1': ds61 };

export function annotationsFor(standard: DataStandard): StandardAnnotations {
  return byStandard[standard];
}
