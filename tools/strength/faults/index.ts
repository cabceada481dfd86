/**
 * The catalogue of faulty deployments (`npm run strength`): each fault is one deviation from the
 * seed, made by the proxy out of the conforming reference, with the rule family it breaks and the
 * suites that must notice it. A fault that no test notices is a missing test. One file per family.
 */
import { upsertFaults } from './upsert.js';
import { putFaults } from './put.js';
import { deleteFaults } from './delete.js';
import { etagFaults } from './etag.js';
import { queryPagingFaults } from './query-paging.js';
import { changeQueriesFaults } from './change-queries.js';
import { snapshotFaults } from './snapshot.js';
import { validationFaults } from './validation.js';
import { referencesFaults } from './references.js';
import { descriptorsFaults } from './descriptors.js';
import { profilesFaults } from './profiles.js';
import { tokenFaults } from './token.js';
import { authenticationFaults } from './authentication.js';
import { authorizationFaults } from './authorization.js';
import { errorsFaults } from './errors.js';
import { limitsFaults } from './limits.js';
import { versioningFaults } from './versioning.js';
import { discoveryFaults } from './discovery.js';
import { rosterTokensFaults } from './roster-tokens.js';
import { rosterScopesFaults } from './roster-scopes.js';
import { rosterQueryFaults } from './roster-query.js';
import { rosterResourcesFaults } from './roster-resources.js';
import { rosterErrorsFaults } from './roster-errors.js';
import { rosterRoutingFaults } from './roster-routing.js';
import type { Fault } from './helpers.js';

export type { Fault } from './helpers.js';

export const faults: Fault[] = [
  ...upsertFaults,
  ...putFaults,
  ...deleteFaults,
  ...etagFaults,
  ...queryPagingFaults,
  ...changeQueriesFaults,
  ...snapshotFaults,
  ...validationFaults,
  ...referencesFaults,
  ...descriptorsFaults,
  ...profilesFaults,
  ...tokenFaults,
  ...authenticationFaults,
  ...authorizationFaults,
  ...errorsFaults,
  ...limitsFaults,
  ...versioningFaults,
  ...discoveryFaults,
  ...rosterTokensFaults,
  ...rosterScopesFaults,
  ...rosterQueryFaults,
  ...rosterResourcesFaults,
  ...rosterErrorsFaults,
  ...rosterRoutingFaults,
];
