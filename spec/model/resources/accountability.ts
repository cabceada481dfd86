import { K, N, R, date, ref, resource, str } from '../dsl.js';

/** Accountability domain (seed). The key is title + education organization + school year. */
export const accountabilityRating = resource({
  name: 'accountabilityRating',
  fields: {
    ratingTitle: str(60, K),
    educationOrganizationReference: ref('educationOrganization', K),
    schoolYearTypeReference: ref('schoolYearType', K),
    rating: str(35, R),
    ratingDate: date(N),
    ratingOrganization: str(35, N),
    ratingProgram: str(30, N),
  },
});
