import { K, N, R, bool, coll, date, desc, descItem, double, int32, ref, resource, str } from '../dsl.js';
import { address } from './education-organizations.js';
import { electronicMail, telephone } from './people.js';

/**
 * Student associations (supporting, data standard 5.x). studentSchoolAssociation,
 * studentEducationOrganizationAssociation and studentContactAssociation establish the
 * relationships that make a student (or contact) reachable for relationship-based authorization.
 */

export const studentSchoolAssociation = resource({
  name: 'studentSchoolAssociation',
  updatable: true,
  relationship: { person: 'student', via: 'studentReference' },
  fields: {
    studentReference: ref('student', K),
    schoolReference: ref('school', K),
    entryDate: date(K),
    entryGradeLevelDescriptor: desc('gradeLevel', R),
    // Calendar and school year share schoolId / schoolYear with the enrollment (key unification).
    calendarReference: ref('calendar'),
    schoolYearTypeReference: ref('schoolYearType'),
    classOfSchoolYearTypeReference: ref('schoolYearType', {}, { schoolYear: 'classOfSchoolYear' }),
    entryTypeDescriptor: desc('entryType', N),
    exitWithdrawDate: date(N),
    exitWithdrawTypeDescriptor: desc('exitWithdrawType', N),
    fullTimeEquivalency: double(N),
    nextYearGradeLevelDescriptor: desc('gradeLevel', N),
    primarySchool: bool(N),
    repeatGradeIndicator: bool(N),
    schoolChoice: bool(N),
    schoolChoiceTransfer: bool(N),
    termCompletionIndicator: bool(N),
  },
});

export const studentSectionAssociation = resource({
  name: 'studentSectionAssociation',
  updatable: true,
  fields: {
    studentReference: ref('student', K),
    sectionReference: ref('section', K),
    beginDate: date(K),
    endDate: date(N),
    attemptStatusDescriptor: desc('attemptStatus', N),
    homeroomIndicator: bool(N),
    repeatIdentifierDescriptor: desc('repeatIdentifier', N),
    teacherStudentDataLinkExclusion: bool(N),
  },
});

/** Demographics as reported to one organization (sex, races, ethnicity, e-mails ...). */
export const studentEducationOrganizationAssociation = resource({
  name: 'studentEducationOrganizationAssociation',
  relationship: { person: 'student', via: 'studentReference' },
  fields: {
    studentReference: ref('student', K),
    educationOrganizationReference: ref('educationOrganization', K),
    sexDescriptor: desc('sex', N),
    hispanicLatinoEthnicity: bool(N),
    races: coll(descItem('race')),
    ancestryEthnicOrigins: coll(descItem('ancestryEthnicOrigin')),
    barrierToInternetAccessInResidenceDescriptor: desc('barrierToInternetAccessInResidence', N),
    genderIdentity: str(60, N),
    internetAccessInResidence: bool(N),
    languages: coll(descItem('language')),
    limitedEnglishProficiencyDescriptor: desc('limitedEnglishProficiency', N),
    loginId: str(60, N),
    profileThumbnail: str(255, N),
    addresses: coll(address),
    electronicMails: coll(electronicMail()),
    studentIdentificationCodes: coll({
      assigningOrganizationIdentificationCode: str(60, K),
      studentIdentificationSystemDescriptor: desc('studentIdentificationSystem', K),
      identificationCode: str(60, R),
    }),
    telephones: coll(telephone()),
  },
});

export const studentContactAssociation = resource({
  name: 'studentContactAssociation',
  relationship: { person: 'contact', via: 'contactReference' },
  fields: {
    studentReference: ref('student', K),
    contactReference: ref('contact', K),
    contactPriority: int32(N),
    contactRestrictions: str(250, N),
    emergencyContactStatus: bool(N),
    legalGuardian: bool(N),
    livesWith: bool(N),
    primaryContactStatus: bool(N),
    relationDescriptor: desc('relation', N),
  },
});
