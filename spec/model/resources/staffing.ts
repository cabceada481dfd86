import { K, N, R, bool, coll, date, desc, descItem, double, int32, ref, resource, str } from '../dsl.js';

/**
 * Staff associations (supporting, data standard 5.x). staffSchoolAssociation and
 * staffEducationOrganizationAssignmentAssociation make a staff member reachable for
 * relationship-based authorization.
 */

export const staffSchoolAssociation = resource({
  name: 'staffSchoolAssociation',
  relationship: { person: 'staff', via: 'staffReference' },
  fields: {
    staffReference: ref('staff', K),
    schoolReference: ref('school', K),
    programAssignmentDescriptor: desc('programAssignment', K),
    calendarReference: ref('calendar'),
    schoolYearTypeReference: ref('schoolYearType'),
    academicSubjects: coll(descItem('academicSubject')),
    gradeLevels: coll(descItem('gradeLevel')),
  },
});

export const staffEducationOrganizationAssignmentAssociation = resource({
  name: 'staffEducationOrganizationAssignmentAssociation',
  relationship: { person: 'staff', via: 'staffReference' },
  fields: {
    staffReference: ref('staff', K),
    educationOrganizationReference: ref('educationOrganization', K),
    staffClassificationDescriptor: desc('staffClassification', K),
    beginDate: date(K),
    credentialReference: ref('credential'),
    endDate: date(N),
    fullTimeEquivalency: double(N),
    orderOfAssignment: int32(N),
    positionTitle: str(100, N),
  },
});

/** In data standard 5.x the begin date is part of the key. */
export const staffSectionAssociation = resource({
  name: 'staffSectionAssociation',
  updatable: true,
  fields: {
    staffReference: ref('staff', K),
    sectionReference: ref('section', K),
    beginDate: date(K),
    classroomPositionDescriptor: desc('classroomPosition', R),
    endDate: date(N),
    highlyQualifiedTeacher: bool(N),
    percentageContribution: double(N),
    teacherStudentDataLinkExclusion: bool(N),
  },
});
