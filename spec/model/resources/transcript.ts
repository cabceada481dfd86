import { K, N, R, coll, date, desc, descItem, double, ref, resource, str } from '../dsl.js';
import { courseIdentificationCode } from './course.js';

/**
 * Student transcript domain: course transcripts (seed) and the student academic records they
 * belong to (supporting, data standard 5.x).
 */

export const studentAcademicRecord = resource({
  name: 'studentAcademicRecord',
  fields: {
    studentReference: ref('student', K),
    educationOrganizationReference: ref('educationOrganization', K),
    schoolYearTypeReference: ref('schoolYearType', K),
    termDescriptor: desc('term', K),
    cumulativeAttemptedCredits: double(N),
    cumulativeAttemptedCreditTypeDescriptor: desc('creditType', N),
    cumulativeEarnedCredits: double(N),
    cumulativeEarnedCreditTypeDescriptor: desc('creditType', N),
    projectedGraduationDate: date(N),
    sessionAttemptedCredits: double(N),
    sessionAttemptedCreditTypeDescriptor: desc('creditType', N),
    sessionEarnedCredits: double(N),
    sessionEarnedCreditTypeDescriptor: desc('creditType', N),
  },
});

/**
 * The course's organization, the academic record's organization and the external organization
 * play different roles: only the record's keeps the name `educationOrganizationId`.
 */
export const courseTranscript = resource({
  name: 'courseTranscript',
  fields: {
    courseAttemptResultDescriptor: desc('courseAttemptResult', K),
    courseReference: ref('course', K, { educationOrganizationId: 'courseEducationOrganizationId' }),
    studentAcademicRecordReference: ref('studentAcademicRecord', K),
    earnedCredits: double(R),
    externalEducationOrganizationReference: ref('educationOrganization', {}, { educationOrganizationId: 'externalEducationOrganizationId' }),
    academicSubjects: coll(descItem('academicSubject')),
    alternativeCourseCode: str(60, { nullable: true, deprecated: 'Use alternativeCourseIdentificationCodes instead.' }),
    alternativeCourseIdentificationCodes: coll(courseIdentificationCode()),
    alternativeCourseTitle: str(60, N),
    assigningOrganizationIdentificationCode: str(60, N),
    attemptedCreditConversion: double(N),
    attemptedCredits: double(N),
    attemptedCreditTypeDescriptor: desc('creditType', N),
    courseCatalogURL: str(255, N),
    courseRepeatCodeDescriptor: desc('courseRepeatCode', N),
    courseTitle: str(60, N),
    creditCategories: coll(descItem('creditCategory')),
    earnedAdditionalCredits: coll({
      additionalCreditTypeDescriptor: desc('additionalCreditType', K),
      credits: double(R),
    }),
    earnedCreditConversion: double(N),
    earnedCreditTypeDescriptor: desc('creditType', N),
    externalEducationOrganizationNameOfInstitution: str(75, N),
    finalLetterGradeEarned: str(20, N),
    finalNumericGradeEarned: double(N),
    methodCreditEarnedDescriptor: desc('methodCreditEarned', N),
    partialCourseTranscriptAwards: coll({
      awardDate: date(K),
      earnedCredits: double(R),
      methodCreditEarnedDescriptor: desc('methodCreditEarned', N),
      letterGradeEarned: str(20, N),
      numericGradeEarned: str(20, N),
    }),
    whenTakenGradeLevelDescriptor: desc('gradeLevel', N),
  },
});
