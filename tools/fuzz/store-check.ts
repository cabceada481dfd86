/**
 * What `npm run fuzz` checks of the durable store after the requests (issue 23 points 4, 5 and
 * 10), on the files the run left behind. During the run every background compaction failed (a
 * directory is where the state file's temp file goes, tools/fuzz/target.ts). Then, in order:
 *
 * 1. the fuzz client's new records are no more than its record quota (point 10);
 * 2. background compactions failed during the run, each reported in one line, and the reference
 *    lived on; SIGTERM while they still fail: exit 0, no stack, one line saying so (point 4);
 * 3. every store file is readable by its owner only (point 10);
 * 4. with the disk writable again, the reference starts on its journals alone at the same change
 *    version, and SIGTERM compacts them into a state file (0600);
 * 5. one changed byte in a record of that state file: start-up refused, exit 2, one line naming
 *    the file and line (point 5);
 * 6. the same with --recover (recoverJournal): it starts, at the same change version, and says
 *    it dropped 1 record;
 * 7. the state file deleted while a later journal exists: start-up refused, exit 2, one line.
 *
 * Each step needs the one before; the first that goes wrong ends the check. Returns what went
 * wrong (empty when nothing did).
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVAILABLE_CHANGE_VERSIONS_PATH, DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import type { ReferenceConfig } from '../../reference/config/types.js';
import { startChildReference, type ChildReference } from '../child-reference.js';
import type { FuzzTarget } from './target.js';

export interface StoreCheckSetup {
  /** The reference the requests went to, still running. */
  child: ChildReference;
  target: FuzzTarget;
  /** Its configuration (started again as is). */
  config: ReferenceConfig;
  /** The directory of its files and the state file's path. */
  dir: string;
  store: string;
  /** What makes every compaction fail (removed at step 4). */
  compactionBlocker: string;
  recordQuota: number;
  /** Where the run's new records go (tools/fuzz/materialize.ts, recipe 'fresh'). */
  freshNamespace: string;
}

class CheckFailed extends Error {}

export async function checkStore(s: StoreCheckSetup): Promise<string[]> {
  const problems: string[] = [];
  const fail = (message: string): never => { problems.push(message); throw new CheckFailed(message); };
  const stackLines = (output: string) => output.split('\n').filter((l) => /^\s+at /.test(l) || /^node:internal/.test(l));
  const afterSigterm = (child: ChildReference) => child.output().slice(child.output().lastIndexOf('SIGTERM: stopping')).trim().split('\n').slice(1);

  /** A start that must be refused: exit 2 and exactly one line matching `expected`. */
  const refused = async (step: string, config: ReferenceConfig, expected: RegExp) => {
    let child: ChildReference | undefined;
    try {
      child = await startChildReference({ dir: s.dir, config });
    } catch (err) {
      const message = (err as Error).message;
      const output = message.slice(message.indexOf('\n') + 1).trim();
      if (!/exited \(2\)/.test(message)) fail(`${step}: start-up did not end with exit 2: ${message.slice(0, 1500)}`);
      if (output.includes('\n') || !expected.test(output)) fail(`${step}: start-up did not say so in one line matching ${expected}:\n${output.slice(0, 1500)}`);
      return;
    }
    await child.stop();
    fail(`${step}: the reference started`);
  };

  /** Files of the store (state file, journals), not the compaction blocker. */
  const storeFiles = () => readdirSync(s.dir).filter((f) => f.startsWith('store.json') && join(s.dir, f) !== s.compactionBlocker);
  const modesOwnerOnly = (step: string) => {
    const loose = storeFiles().map((f) => [f, statSync(join(s.dir, f)).mode & 0o777] as const).filter(([, mode]) => mode & 0o077);
    if (loose.length) fail(`${step}: store files readable by others: ${loose.map(([f, m]) => `${f} ${m.toString(8)}`).join(', ')}`);
  };

  try {
    // 1. The record quota held (point 10).
    const token = s.target.token;
    const before = await newestChangeVersion(s.target.dataApiBaseUrl, token);
    const fresh = await fetch(`${s.target.dataApiBaseUrl}${DATA_ROOT}/core/gradeLevelDescriptors?namespace=${encodeURIComponent(s.freshNamespace)}&totalCount=true&limit=0`, { headers: { Authorization: `Bearer ${token}` } });
    const freshCount = Number(fresh.headers.get('total-count'));
    if (fresh.status !== 200 || !Number.isInteger(freshCount)) fail(`counting the run's new records: ${fresh.status} ${await fresh.text()}`);
    if (freshCount > s.recordQuota) fail(`the fuzz client holds ${freshCount} new records, over its record quota of ${s.recordQuota}`);

    // 2. Background compactions failed during the run, and the reference lived on; SIGTERM while
    // every compaction fails (point 4).
    const failedInBackground = s.child.output().split('\n').filter((l) => /^data store .*: compaction failed \(/.test(l)).length;
    if (!failedInBackground) fail('no background compaction failed during the run (journalCompactEvery not applied?)');
    const exit = await s.child.stop(30_000);
    if (exit.code !== 0) fail(`SIGTERM with compactions failing ended in ${JSON.stringify(exit)}:\n${s.child.output().slice(-1500)}`);
    if (stackLines(s.child.output()).length) fail(`the reference printed a stack:\n${stackLines(s.child.output()).slice(0, 10).join('\n')}`);
    // One line for the shutdown's compaction (and one for a background compaction it waited for).
    const shutdown = afterSigterm(s.child);
    if (!shutdown.some((l) => /: compaction at shutdown failed .*every write stays in the journals/.test(l)) || !shutdown.every((l) => /^data store .*: compaction (at shutdown )?failed \(/.test(l))) fail(`SIGTERM with compactions failing did not say so in one line:\n${shutdown.join('\n').slice(0, 1500)}`);

    // 3. File modes (point 10).
    if (!storeFiles().length) fail('no store files after the run');
    modesOwnerOnly('after the run');

    // 4. The journals alone carry the run; a clean SIGTERM compacts them.
    rmSync(s.compactionBlocker, { recursive: true, force: true });
    const again = await startChildReference({ dir: s.dir, config: s.config });
    try {
      const after = await newestChangeVersion(again.dataApiBaseUrl, await fetchToken(again.dataApiBaseUrl, s.target.client));
      if (after !== before) fail(`started again on the journals, the newest change version is ${after}, not ${before}`);
    } finally {
      const stopped = await again.stop(30_000);
      if (stopped.code !== 0 || afterSigterm(again).length) fail(`SIGTERM with a writable disk: ${JSON.stringify(stopped)}\n${afterSigterm(again).join('\n').slice(0, 1500)}`);
    }
    const state = readFileSync(s.store, 'utf8').split('\n');
    modesOwnerOnly('after a compaction');

    // 5. One changed byte in a record of the state file (point 5).
    const line = state[1] ?? fail('the state file holds no record');
    const at = Math.floor(line.length / 2);
    state[1] = `${line.slice(0, at)}${line[at] === '7' ? '8' : '7'}${line.slice(at + 1)}`;
    writeFileSync(s.store, state.join('\n'));
    const storePattern = s.store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await refused('a changed byte in the state file', s.config, new RegExp(`^data store file ${storePattern} is damaged at line 2 \\(byte \\d+\\): .*--recover`));

    // 6. --recover: starts without that record, and says so.
    const recovering = await startChildReference({ dir: s.dir, config: { ...s.config, recoverJournal: true } });
    try {
      if (!new RegExp(`^data store file ${storePattern}: recovery dropped 1 record \\(\\w+ 1\\)$`, 'm').test(recovering.output())) fail(`--recover did not report 1 record lost:\n${recovering.output().slice(0, 1500)}`);
      const recoveredToken = await fetchToken(recovering.dataApiBaseUrl, s.target.client);
      const after = await newestChangeVersion(recovering.dataApiBaseUrl, recoveredToken);
      if (after !== before) fail(`after --recover the newest change version is ${after}, not ${before}`);
      // One more write (an update: the quota may be reached), into a journal after the state file.
      const sample = s.target.samples.find((x) => x.endpoint === 'gradeLevelDescriptors' && x.docs.length) ?? fail('no grade level descriptor to update');
      const update = await fetch(`${recovering.dataApiBaseUrl}${DATA_ROOT}/core/gradeLevelDescriptors`, { method: 'POST', headers: { Authorization: `Bearer ${recoveredToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...sample.docs[0], shortDescription: 'changed by the store check' }) });
      if (update.status !== 200 && update.status !== 201) fail(`an update after --recover: ${update.status} ${await update.text()}`);
    } finally {
      recovering.kill('SIGKILL');
      await recovering.exited;
    }

    // 7. The state file gone, a later journal present (point 5).
    rmSync(s.store);
    await refused('the state file deleted, a later journal present', s.config, new RegExp(`^data store file ${storePattern} is missing, but its journals from generation \\d+ on are present: .*--recover`));
  } catch (err) {
    if (!(err instanceof CheckFailed)) problems.push(`the store check stopped: ${(err as Error).message.slice(0, 1500)}`);
  }
  return problems;
}

export async function fetchToken(dataApiBaseUrl: string, client: FuzzTarget['client']): Promise<string> {
  const res = await fetch(`${dataApiBaseUrl}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${client.key}:${client.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function newestChangeVersion(dataApiBaseUrl: string, token: string): Promise<number> {
  const res = await fetch(`${dataApiBaseUrl}${AVAILABLE_CHANGE_VERSIONS_PATH}`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { newestChangeVersion: number }).newestChangeVersion;
}
