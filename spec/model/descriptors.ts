/**
 * Descriptor resources, by name without the `Descriptor` suffix. Every one shares the seed's
 * descriptor shape; its endpoint is `<name>Descriptors`. The first 38 are the seed's list; the
 * rest are the descriptors the supporting resources need (from the public data standard).
 */
export const seedDescriptors = [
  'absenceEventCategory', 'academicHonorCategory', 'academicSubject', 'accommodation', 'accountType',
  'achievementCategory', 'additionalCreditType', 'addressType', 'administrationEnvironment',
  'administrativeFundingControl', 'ancestryEthnicOrigin', 'assessmentCategory', 'assessmentIdentificationSystem',
  'assessmentItemCategory', 'assessmentItemResult', 'assessmentPeriod', 'barrierToInternetAccessInResidence',
  'behavior', 'calendarEvent', 'calendarType', 'careerPathway', 'charterApprovalAgencyType', 'charterStatus',
  'citizenshipStatus', 'classroomPosition', 'cohortScope', 'cohortType', 'cohortYearType', 'courseAttemptResult',
  'courseDefinedBy', 'courseGPAApplicability', 'courseIdentificationSystem', 'courseLevelCharacteristic',
  'courseRepeatCode', 'credentialField', 'credentialType', 'creditCategory', 'creditType',
] as const;

export const supportingDescriptors = [
  'educationOrganizationCategory', 'educationOrganizationIdentificationSystem', 'gradeLevel',
  'localEducationAgencyCategory', 'operationalStatus', 'schoolCategory', 'schoolType', 'stateAbbreviation',
  // assessment, learning standards
  'assessmentReportingMethod', 'language', 'learningStandardCategory', 'performanceLevel', 'platformType',
  'publicationStatus', 'resultDatatypeType',
  // finance
  'reportingTag',
  // community organizations and providers
  'country', 'indicator', 'indicatorGroup', 'indicatorLevel', 'institutionTelephoneNumberType', 'licenseStatus',
  'licenseType', 'providerCategory', 'providerProfitability', 'providerStatus',
  // courses, sections, transcripts, credentials
  'competencyLevel', 'curriculumUsed', 'educationalEnvironment', 'methodCreditEarned', 'teachingCredential',
  'teachingCredentialBasis',
  // calendar, sessions, programs
  'gradingPeriod', 'programType', 'term',
  // people and associations
  'attemptStatus', 'electronicMailType', 'entryType', 'exitWithdrawType', 'levelOfEducation',
  'limitedEnglishProficiency', 'programAssignment', 'race', 'relation', 'repeatIdentifier', 'sex',
  'staffClassification', 'staffIdentificationSystem', 'studentIdentificationSystem', 'telephoneNumberType',
] as const;

export const descriptorNames: readonly string[] = [...seedDescriptors, ...supportingDescriptors];
