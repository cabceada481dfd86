/** Faulty deployments that break data.snapshot. */
import { pathOf } from '../proxy.js';
import { isData, feed, type Fault } from './helpers.js';

export const snapshotFaults: Fault[] = [
  {
    name: 'use-snapshot-write-accepted', family: 'data.snapshot', suites: ['snapshot'],
    description: 'writes with Use-Snapshot: true are carried out instead of refused with 405',
    request: (req) => { if (isData(req) && req.method !== 'GET') delete req.headers['use-snapshot']; },
  },
  {
    name: 'use-snapshot-read-ignored', family: 'data.snapshot', suites: ['snapshot'],
    description: 'reads with Use-Snapshot: true are served from live data',
    request: (req) => { if (isData(req) && req.method === 'GET') delete req.headers['use-snapshot']; },
  },
  {
    name: 'key-changes-snapshot-ignored', family: 'data.snapshot', suites: ['snapshot'],
    description: '/keyChanges (only) is served from live data under Use-Snapshot: true',
    request: (req) => { if (feed(req) && /keyChanges/i.test(pathOf(req))) delete req.headers['use-snapshot']; },
  },
];
