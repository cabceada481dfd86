/**
 * The descriptor resources the seed shows by name ("Descriptor resources shown: …"); the model
 * serves every descriptor of the data standard, these among them.
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
