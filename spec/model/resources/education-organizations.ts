import { K, R, coll, desc, descItem, int32, int64, ref, resource, str, type AbstractDef, type Fields } from '../dsl.js';

/** The abstract supertype: a reference to it resolves against any member below. */
export const educationOrganization: AbstractDef = {
  name: 'educationOrganization',
  identity: ['educationOrganizationId'],
  identityKinds: { educationOrganizationId: 'int64' },
};

export const address: Fields = {
  addressTypeDescriptor: desc('addressType', K),
  city: str(30, K),
  postalCode: str(17, K),
  stateAbbreviationDescriptor: desc('stateAbbreviation', K),
  streetNumberName: str(150, K),
  apartmentRoomSuiteNumber: str(50),
  nameOfCounty: str(30),
};

/** Members shared by every education organization (nameOfInstitution, categories, addresses ...). */
export const educationOrganizationCommon = (): Fields => ({
  nameOfInstitution: str(75, R),
  shortNameOfInstitution: str(75),
  webSite: str(255),
  operationalStatusDescriptor: desc('operationalStatus'),
  categories: coll(descItem('educationOrganizationCategory'), R),
  addresses: coll(address),
  identificationCodes: coll({
    educationOrganizationIdentificationSystemDescriptor: desc('educationOrganizationIdentificationSystem', K),
    identificationCode: str(60, R),
  }),
});

export const stateEducationAgency = resource({
  name: 'stateEducationAgency',
  plural: 'stateEducationAgencies',
  educationOrganization: { idField: 'stateEducationAgencyId' },
  fields: {
    stateEducationAgencyId: int64(K),
    ...educationOrganizationCommon(),
  },
});

export const educationServiceCenter = resource({
  name: 'educationServiceCenter',
  educationOrganization: { idField: 'educationServiceCenterId', parents: ['stateEducationAgencyReference'] },
  fields: {
    educationServiceCenterId: int64(K),
    stateEducationAgencyReference: ref('stateEducationAgency'),
    ...educationOrganizationCommon(),
  },
});

export const localEducationAgency = resource({
  name: 'localEducationAgency',
  plural: 'localEducationAgencies',
  educationOrganization: {
    idField: 'localEducationAgencyId',
    parents: ['parentLocalEducationAgencyReference', 'stateEducationAgencyReference', 'educationServiceCenterReference'],
  },
  fields: {
    localEducationAgencyId: int64(K),
    localEducationAgencyCategoryDescriptor: desc('localEducationAgencyCategory', R),
    charterStatusDescriptor: desc('charterStatus'),
    parentLocalEducationAgencyReference: ref('localEducationAgency', {}, { localEducationAgencyId: 'parentLocalEducationAgencyId' }),
    stateEducationAgencyReference: ref('stateEducationAgency'),
    educationServiceCenterReference: ref('educationServiceCenter'),
    ...educationOrganizationCommon(),
  },
});

export const school = resource({
  name: 'school',
  educationOrganization: { idField: 'schoolId', parents: ['localEducationAgencyReference'] },
  fields: {
    schoolId: int64(K),
    localEducationAgencyReference: ref('localEducationAgency'),
    administrativeFundingControlDescriptor: desc('administrativeFundingControl'),
    charterApprovalAgencyTypeDescriptor: desc('charterApprovalAgencyType'),
    charterStatusDescriptor: desc('charterStatus'),
    schoolTypeDescriptor: desc('schoolType'),
    gradeLevels: coll(descItem('gradeLevel'), R),
    schoolCategories: coll(descItem('schoolCategory')),
    ...educationOrganizationCommon(),
  },
});

export const schoolYearType = resource({
  name: 'schoolYearType',
  schoolYearEnumeration: true,
  fields: {
    schoolYear: int32(K),
    currentSchoolYear: { kind: 'boolean', required: true },
    schoolYearDescription: str(50, R),
  },
});

