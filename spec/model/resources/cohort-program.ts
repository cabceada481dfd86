import { K, N, R, coll, desc, ref, resource, str } from '../dsl.js';

/** Cohorts (seed) and programs (supporting, data standard 5.x). */

export const program = resource({
  name: 'program',
  fields: {
    programName: str(60, K),
    programTypeDescriptor: desc('programType', K),
    educationOrganizationReference: ref('educationOrganization', K),
    programId: str(20, N),
  },
});

/** A cohort's programs may be run by another organization than the cohort's own. */
export const cohort = resource({
  name: 'cohort',
  fields: {
    cohortIdentifier: str(20, K),
    educationOrganizationReference: ref('educationOrganization', K),
    cohortTypeDescriptor: desc('cohortType', R),
    academicSubjectDescriptor: desc('academicSubject', N),
    cohortDescription: str(1024, N),
    cohortScopeDescriptor: desc('cohortScope', N),
    programs: coll({
      programReference: ref('program', K, { educationOrganizationId: 'programEducationOrganizationId' }),
    }),
  },
});
