import { K, N, R, bool, coll, date, desc, descItem, int32, ref, resource, str, type Fields } from '../dsl.js';
import { educationOrganizationCommon } from './education-organizations.js';

/**
 * Community domain (seed): community organizations and providers (education organization
 * members; the seed gives their ids as int32) and provider licenses.
 */

/**
 * The education-organization arrays the seed lists for community organizations beyond
 * `educationOrganizationCommon` (item shapes from data standard 5.x).
 */
export const educationOrganizationMoreArrays = (): Fields => ({
  indicators: coll({
    indicatorDescriptor: desc('indicator', K),
    designatedBy: str(60, N),
    indicatorGroupDescriptor: desc('indicatorGroup', N),
    indicatorLevelDescriptor: desc('indicatorLevel', N),
    indicatorValue: str(60, N),
    periods: coll({ beginDate: date(K), endDate: date(N) }),
  }),
  institutionTelephones: coll({
    institutionTelephoneNumberTypeDescriptor: desc('institutionTelephoneNumberType', K),
    telephoneNumber: str(24, R),
  }),
  internationalAddresses: coll({
    addressTypeDescriptor: desc('addressType', K),
    countryDescriptor: desc('country', R),
    addressLine1: str(150, R),
    addressLine2: str(150, N),
    addressLine3: str(150, N),
    addressLine4: str(150, N),
    beginDate: date(N),
    endDate: date(N),
    latitude: str(20, N),
    longitude: str(20, N),
  }),
});

export const communityOrganization = resource({
  name: 'communityOrganization',
  educationOrganization: { idField: 'communityOrganizationId' },
  fields: {
    communityOrganizationId: int32(K),
    ...educationOrganizationCommon(),
    ...educationOrganizationMoreArrays(),
  },
});

export const communityProvider = resource({
  name: 'communityProvider',
  educationOrganization: { idField: 'communityProviderId', parents: ['communityOrganizationReference'] },
  fields: {
    communityProviderId: int32(K),
    nameOfInstitution: str(75, R),
    providerCategoryDescriptor: desc('providerCategory', R),
    providerStatusDescriptor: desc('providerStatus', R),
    categories: coll(descItem('educationOrganizationCategory'), R),
    communityOrganizationReference: ref('communityOrganization'),
    licenseExemptIndicator: bool(N),
    providerProfitabilityDescriptor: desc('providerProfitability', N),
    schoolIndicator: bool(N),
    ...educationOrganizationCommon(),
    ...educationOrganizationMoreArrays(),
  },
});

export const communityProviderLicense = resource({
  name: 'communityProviderLicense',
  fields: {
    licenseIdentifier: str(20, K),
    licensingOrganization: str(75, K),
    communityProviderReference: ref('communityProvider', K),
    licenseEffectiveDate: date(R),
    licenseTypeDescriptor: desc('licenseType', R),
    authorizedFacilityCapacity: int32(N),
    licenseExpirationDate: date(N),
    licenseIssueDate: date(N),
    licenseStatusDescriptor: desc('licenseStatus', N),
    oldestAgeAuthorizedToServe: int32(N),
    youngestAgeAuthorizedToServe: int32(N),
  },
});
