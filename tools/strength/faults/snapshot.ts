/** Faulty deployments that break data.snapshot. */
import { header, pathOf, type ProxiedRequest, type Tools } from '../proxy.js';
import { collection, isData, feed, type Fault } from './helpers.js';

/**
 * Serves a read the request picks from the snapshot when none was asked for, whenever a snapshot
 * is configured (the same read with Use-Snapshot: true answers 200); else from live data.
 */
function snapshotByDefault(which: (req: ProxiedRequest) => boolean) {
  return async (req: ProxiedRequest, tools: Tools) => {
    if (req.method !== 'GET' || !which(req) || header(req, 'use-snapshot') !== undefined) return;
    const res = await tools.upstream({ ...req, headers: { ...req.headers, 'use-snapshot': 'true' } });
    if (res.status === 200) return res;
  };
}

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
  {
    name: 'collection-read-from-snapshot-by-default', family: 'data.snapshot', suites: ['snapshot'],
    description: 'a GET collection without Use-Snapshot is answered from the snapshot whenever one is configured',
    request: snapshotByDefault(collection),
  },
  {
    name: 'feeds-read-from-snapshot-by-default', family: 'data.snapshot', suites: ['snapshot'],
    description: '/deletes and /keyChanges without Use-Snapshot are answered from the snapshot whenever one is configured',
    request: snapshotByDefault(feed),
  },
];
