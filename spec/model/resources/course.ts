import { K, N, R, bool, coll, date, desc, descItem, double, int32, ref, refItem, resource, str, type Fields } from '../dsl.js';

/**
 * Course domain: courses and course offerings (seed) and sections (supporting, data standard
 * 5.x; the location references are left out).
 */

/** A course identification code (course.identificationCodes, courseTranscript.alternativeCourseIdentificationCodes). */
export const courseIdentificationCode = (): Fields => ({
  courseIdentificationSystemDescriptor: desc('courseIdentificationSystem', K),
  assigningOrganizationIdentificationCode: str(60, N),
  courseCatalogURL: str(255, N),
  identificationCode: str(60, R),
});

export const course = resource({
  name: 'course',
  fields: {
    courseCode: str(60, K),
    educationOrganizationReference: ref('educationOrganization', K),
    courseTitle: str(60, R),
    numberOfParts: int32(R),
    identificationCodes: coll(courseIdentificationCode(), R),
    academicSubjectDescriptor: desc('academicSubject', N),
    careerPathwayDescriptor: desc('careerPathway', N),
    courseDefinedByDescriptor: desc('courseDefinedBy', N),
    courseGPAApplicabilityDescriptor: desc('courseGPAApplicability', N),
    maximumAvailableCreditTypeDescriptor: desc('creditType', N),
    minimumAvailableCreditTypeDescriptor: desc('creditType', N),
    courseDescription: str(1024, N),
    dateCourseAdopted: date(N),
    highSchoolCourseRequirement: bool(N),
    maxCompletionsForCredit: int32(N),
    maximumAvailableCredits: double(N),
    minimumAvailableCredits: double(N),
    maximumAvailableCreditConversion: double(N),
    minimumAvailableCreditConversion: double(N),
    timeRequiredForCompletion: int32({ nullable: true, description: 'Minutes.' }),
    competencyLevels: coll(descItem('competencyLevel')),
    learningObjectives: coll(refItem('learningObjective')),
    learningStandards: coll(refItem('learningStandard')),
    levelCharacteristics: coll(descItem('courseLevelCharacteristic')),
    offeredGradeLevels: coll(descItem('gradeLevel')),
  },
});

export const courseOffering = resource({
  name: 'courseOffering',
  fields: {
    localCourseCode: str(60, K),
    courseReference: ref('course', R),
    schoolReference: ref('school', K),
    sessionReference: ref('session', K),
    localCourseTitle: str(60, N),
    instructionalTimePlanned: int32({ nullable: true, description: 'Minutes.' }),
    courseLevelCharacteristics: coll(descItem('courseLevelCharacteristic'), {
      description: 'Populated only when it differs from the course.',
    }),
    curriculumUseds: coll(descItem('curriculumUsed')),
    offeredGradeLevels: coll(descItem('gradeLevel'), { description: 'Populated only when it differs from the course.' }),
  },
});

/** Supporting (data standard 5.x): a section of a course offering. */
export const section = resource({
  name: 'section',
  updatable: true,
  fields: {
    sectionIdentifier: str(255, K),
    courseOfferingReference: ref('courseOffering', K),
    availableCreditConversion: double(N),
    availableCredits: double(N),
    availableCreditTypeDescriptor: desc('creditType', N),
    classPeriods: coll(refItem('classPeriod')),
    courseLevelCharacteristics: coll(descItem('courseLevelCharacteristic')),
    educationalEnvironmentDescriptor: desc('educationalEnvironment', N),
    instructionLanguageDescriptor: desc('language', N),
    offeredGradeLevels: coll(descItem('gradeLevel')),
    officialAttendancePeriod: bool(N),
    sectionName: str(100, N),
    sequenceOfCourse: int32(N),
  },
});
