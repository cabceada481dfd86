import { httpClient, type HttpClient } from '../../_harness/http.js';
import { readFileSync } from 'node:fs';
import { SignJWT, decodeJwt, importPKCS8 } from 'jose';
import { fetchToken, sharedTokens } from '../../_harness/tokens.js';
import { credentials, target, unsetCredentialVariables } from '../../_harness/target.js';
import type { RosteringClient, RosteringFlows, RosteringOrganizations } from '../../targets/types.js';
import { ROSTERING_RUN_ENV } from '../../_harness/rostering-run-env.js';
import { notApplicable } from '../../_harness/capabilities.js';
import { rosteringSelected } from '../../_harness/selection.js';
import { flowsDescription } from './flows.js';
import { PREFIX, scope } from './service.js';
import { DryWriter, Writer, buildDistrict, buildWorld, type World } from './world.js';
import { SEED_LABEL, holdersOf, writtenBySuites, type Holder } from './earlier-worlds.js';
import { RUN_ID } from '../../_harness/run-id.js';

/**
 * Once per run (global setup, main process): one token per rostering client of the target file,
 * each checked against the claims the file declares for it, and the data the rostering suites
 * read, written with the reserved organization ids (rostering.organizations): the world on the
 * target's data API and a district on each routing flow's own data API. Workers read all of it
 * through ROSTERING_RUN_ENV; the returned teardown deletes the data.
 *
 * Once per run because the organization ids are fixed (the clients' claims name them), and
 * because a stock token endpoint refuses more than a few live tokens per client.
 */

export interface RosteringRun {
  /** Token by rostering client role (clients whose flow the target does not describe have none). */
  tokens: Record<string, string>;
  world?: World;
  /** The district written on each flow's data API (`single`: the world's LEA1 and school A). */
  districts: Partial<Record<keyof RosteringFlows, District>>;
  /**
   * Reserved organization ids the deployment already uses, by field of rostering.organizations,
   * with what holds them: the suites never write over them, so what needs them is not applicable.
   */
  taken?: Partial<Record<keyof RosteringOrganizations, string>>;
  /** Routing flows whose own data API already holds the district's reserved ids, with what holds them. */
  withheldFlows?: Partial<Record<keyof RosteringFlows, string>>;
  /** Why this shard has no rostering data: shard 1 of its run did not write it (shards.ts); what reads it is not applicable. */
  unavailable?: string;
}

/** What shard 1 of a shared run tells the other shards of the rostering data it wrote (shards.ts). */
export type SharedRostering = Pick<RosteringRun, 'taken' | 'withheldFlows'>;

/**
 * A shard's part in its run's rostering data (shards.ts): every shard computes it from the run's
 * `seed`; shard 1 writes it, every other shard computes what shard 1 wrote (`replay`: what shard 1
 * said of it, or why it wrote none).
 */
export interface RosteringShare { seed: string; replay?: SharedRostering | string }

/** A district of a routing flow: its ids and the names written with them (how tests find it). */
export interface District { lea: number; school: number; leaName: string; schoolName: string }

/** The data API issuing a client's tokens, or undefined when the target lacks its flow. */
export function issuingDataApi(c: RosteringClient): string | undefined {
  const flow = c.flow ?? 'single';
  return flow === 'single' ? target.dataApi.baseUrl : flowsDescription()[flow]?.dataApi;
}

const sameSet = (a: unknown[], b: unknown[]) => JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());

/** Differences between a token's claims and what the target declares for its client. */
export function claimMismatches(role: string, c: RosteringClient, token: string): string[] {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch {
    return [`client '${role}': the token endpoint issued no JWT`];
  }
  const list = (v: unknown, sep: RegExp) => (Array.isArray(v) ? v : typeof v === 'string' || typeof v === 'number' ? String(v).split(sep) : []).map((x) => String(x).trim()).filter(Boolean);
  const problems: string[] = [];
  const orgs = list(claims.educationOrganizationId, /,/);
  if (!sameSet(orgs, c.educationOrganizationIds ?? [])) problems.push(`educationOrganizationId is ${JSON.stringify(claims.educationOrganizationId)}, declared ${JSON.stringify(c.educationOrganizationIds ?? [])}`);
  const base = target.rostering?.scopeBase ?? '';
  const scopes = list(claims.scope, /[\s,]+/).filter((s) => /roster(-core|-demographics)?\.readonly$/.test(s));
  if (!sameSet(scopes, (c.scopes ?? []).map((s) => `${base}${s}`))) problems.push(`rostering scopes are ${JSON.stringify(scopes)}, declared ${JSON.stringify(c.scopes ?? [])}`);
  if ((claims.tenantId ?? undefined) !== c.tenant) problems.push(`tenantId is ${JSON.stringify(claims.tenantId)}, declared ${JSON.stringify(c.tenant)}`);
  if (c.odsInstances) {
    let issued: unknown;
    try { issued = typeof claims.odsInstances === 'string' ? JSON.parse(claims.odsInstances) : claims.odsInstances; } catch { issued = undefined; }
    const entries = ((issued as { OdsInstances?: { OdsInstanceId: number; OdsInstanceContext?: { ContextKey: string; ContextValue: string } | null }[] } | undefined)?.OdsInstances ?? [])
      .map((i) => ({ id: i.OdsInstanceId, ...(i.OdsInstanceContext ? { context: { key: i.OdsInstanceContext.ContextKey, value: i.OdsInstanceContext.ContextValue } } : {}) }));
    if (JSON.stringify(entries) !== JSON.stringify(c.odsInstances)) problems.push(`odsInstances are ${JSON.stringify(entries)}, declared ${JSON.stringify(c.odsInstances)}`);
  }
  return problems.map((p) => `client '${role}': ${p}`);
}

export async function rosteringSetup(share: RosteringShare = { seed: RUN_ID.slice(-6) }): Promise<(() => Promise<void>) | undefined> {
  const r = target.rostering;
  if (!r || !rosteringSelected(process.argv)) return undefined;
  const ctx = httpClient();
  const run: RosteringRun = { tokens: {}, districts: {} };
  const replay = share.replay;
  // A writer of this run's data: shard 1's (or a run alone's) writes, another shard's computes what it wrote.
  const writerOn = (dataApi: string, label: keyof typeof SEED_LABEL) => (replay ? Promise.resolve(new DryWriter(dataApi, `${share.seed}${SEED_LABEL[label]}`)) : Writer.on(ctx, dataApi, `${share.seed}${SEED_LABEL[label]}`));
  const problems: string[] = [];
  // One token per client, the clients at the same time (each its own token), beside the test-key probes.
  const fetched = Object.entries(r.clients ?? {}).map(async ([role, c]) => {
    const dataApi = issuingDataApi(c);
    const creds = credentials(c);
    if (!dataApi || !creds) {
      console.log(`rostering client '${role}': ${!dataApi ? `the target describes no ${c.flow} flow` : `${unsetCredentialVariables(c).join(', ')} not set`}; its tests are not applicable`);
      return [];
    }
    const token = await fetchToken(ctx, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi } }, creds);
    run.tokens[role] = token;
    return claimMismatches(role, c, token);
  });
  for (const found of await Promise.all([...fetched, testIssuerTrusted(ctx)])) problems.push(...found);
  const writers: Writer[] = [];
  try {
    // A client whose token does not carry what the file says, or a test key a service does not
    // trust, would fail tests for the wrong reason.
    if (problems.length) throw new Error(`the target's rostering declarations do not fit the deployment:\n- ${problems.join('\n- ')}`);
    if (typeof replay === 'string') run.unavailable = replay;
    else if (r.organizations) {
      const writer = await writerOn(target.dataApi.baseUrl, 'world');
      writers.push(writer);
      run.taken = replay ? { ...replay.taken } : await reservedIdsInUse(writer, r.organizations);
      const world = WORLD_FIELDS.filter((f) => run.taken![f]);
      if (world.length) {
        console.log(`rostering: ${world.map((f) => `rostering.organizations.${f} ${r.organizations![f]} ${run.taken![f]}`).join('; ')}: the suites never write over a deployment's records, so the rostering tests that read their data are not applicable; declare ids the deployment does not use${Object.values(run.taken ?? {}).some((t) => t?.includes('earlier run')) ? ' (or run npm run cleanup; a run starting an hour after that data was written removes it itself)' : ''}`);
        process.env[ROSTERING_RUN_ENV] = JSON.stringify(run);
        return () => cleanup(writers).finally(() => ctx.dispose());
      }
      // The world and each other flow's district at the same time: each on its own data API.
      const sharing: ('context' | 'tenant' | 'tenantContext')[] = [];
      const flowDistrict = async (name: 'context' | 'tenant' | 'tenantContext') => {
        const flow = flowsDescription()[name];
        // A flow on the target's own data API reads the world already written there.
        if (!flow || flow.dataApi.replace(/\/$/, '') === target.dataApi.baseUrl) {
          if (flow) sharing.push(name);
          return;
        }
        const w = await writerOn(flow.dataApi, name);
        writers.push(w);
        if (replay) {
          const withheld = replay.withheldFlows?.[name];
          if (withheld) {
            (run.withheldFlows ??= {})[name] = withheld;
            return;
          }
        } else {
          // That data API's own organizations are never written over either: the flow's tests are then not applicable.
          const held = await reservedIdsInUse(w, { lea1: r.organizations!.lea1, schoolA: r.organizations!.schoolA });
          const [field, what] = Object.entries(held ?? {})[0] ?? [];
          if (field) {
            (run.withheldFlows ??= {})[name] = `rostering.organizations.${field} ${r.organizations![field as 'lea1']} ${what?.replace('the deployment\'s', `the ${name} flow's data API's`)}`;
            console.log(`rostering: ${run.withheldFlows[name]}: the suites never write over it, so the ${name} flow's tests are not applicable`);
            return;
          }
        }
        run.districts[name] = await buildDistrict(w, { lea: r.organizations!.lea1, school: r.organizations!.schoolA });
      };
      // Flows sharing a data API one after another (the second then finds the first's district
      // holding the ids, as before); the data APIs at the same time. Every one settles before any
      // failure goes on, so that cleanup() finds every writer's records.
      const byDataApi = new Map<string, ('context' | 'tenant' | 'tenantContext')[]>();
      for (const name of ['context', 'tenant', 'tenantContext'] as const) {
        const api = (flowsDescription()[name]?.dataApi ?? name).replace(/\/$/, '');
        byDataApi.set(api, [...(byDataApi.get(api) ?? []), name]);
      }
      const inTurn = async (names: ('context' | 'tenant' | 'tenantContext')[]) => { for (const name of names) await flowDistrict(name); };
      const settled = await Promise.allSettled([buildWorld(writer, r.organizations), ...[...byDataApi.values()].map(inTurn)]);
      const failed = settled.find((x): x is PromiseRejectedResult => x.status === 'rejected');
      if (failed) throw failed.reason;
      run.world = (settled[0] as PromiseFulfilledResult<World>).value;
      run.districts.single = { lea: run.world.lea1, school: run.world.schoolA, leaName: run.world.names.lea1, schoolName: run.world.names.schoolA };
      for (const name of sharing) run.districts[name] = run.districts.single;
    }
  } catch (err) {
    await cleanup(writers).finally(() => ctx.dispose());
    throw err;
  }
  process.env[ROSTERING_RUN_ENV] = JSON.stringify(run);
  return () => cleanup(writers).finally(() => ctx.dispose());
}

/**
 * capabilities.testIssuer: the rostering service and each neighbour must trust the key, or every
 * test signing with it fails for the declaration's sake (a neighbour is told from the deployment
 * only by its issuer or audience, so the suites' tokens for it are all signed with this key).
 * Probed with a token of the deployment's own issuer, audience and client, a core scope and the
 * neighbour's own issuer or audience, signed with the key: refused 401 means not trusted.
 */
async function testIssuerTrusted(ctx: HttpClient): Promise<string[]> {
  const cap = target.capabilities?.testIssuer;
  const r = target.rostering;
  if (!cap || !r) return [];
  const field = `capabilities.testIssuer.${cap.pemEnv ? 'pemEnv' : 'pemFile'}`;
  let pem: string | undefined;
  try { pem = cap.pemEnv ? process.env[cap.pemEnv] : cap.pemFile ? readFileSync(cap.pemFile, 'utf8') : undefined; } catch { pem = undefined; }
  if (!pem) return [`${field}: no key to read (${cap.pemEnv ? `environment variable ${cap.pemEnv} not set` : `no file ${cap.pemFile ?? ''}`})`];
  const { iss, aud, client_id } = decodeJwt(sharedTokens().primary);
  const now = Math.floor(Date.now() / 1000);
  const services = [
    { where: 'rostering.baseUrl', origin: r.baseUrl, iss, aud },
    ...(r.neighbours ?? []).map((n, i) => ({ where: `rostering.neighbours[${i}]`, origin: n.rostering, iss: n.issuer ?? iss, aud: n.audience ?? aud })),
  ];
  const key = await importPKCS8(pem, 'RS256').catch(() => undefined);
  if (!key) return [`${field}: not an RSA private key in PKCS#8 PEM`];
  const refused: string[] = [];
  for (const s of services) {
    const token = await new SignJWT({ iss: s.iss, aud: s.aud, client_id, iat: now, exp: now + 300, scope: scope('core') }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(key);
    const url = `${s.origin.replace(/\/$/, '')}${PREFIX}/orgs`;
    const res = await ctx.get(url, { headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (res?.status() === 401) refused.push(`${field}: the rostering service at ${s.origin} (${s.where}) refuses (401) a token signed with this key; configure it to trust the key's public key as well as its issuer's (the reference: ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM), or leave testIssuer out`);
  }
  return refused;
}

/** The reserved ids the world is written with (pagingLea is the paging tests' own). */
export const WORLD_FIELDS = ['sea', 'lea1', 'lea2', 'schoolA', 'schoolB', 'schoolC', 'schoolD'] as const;

/** Not applicable when the deployment already holds one of these reserved ids (the set-up never wrote over it), or when this shard has no rostering data. */
export function unlessHeld(fields: readonly (keyof RosteringOrganizations)[]): void {
  const run = rosteringRun();
  if (run.unavailable) notApplicable(run.unavailable);
  const taken = run.taken ?? {};
  const field = fields.find((f) => taken[f]);
  if (field) notApplicable(`rostering.organizations.${field} ${target.rostering?.organizations?.[field] ?? ''} ${taken[field]}: the suites never write over it`);
}

/**
 * The reserved organization ids the deployment already holds, each with what holds it. An
 * education organization id is one across its kinds, so each is looked for as every kind the
 * judged model has (a state agency, a district, a school, and also a post-secondary institution,
 * an organization department, …), all at once: the world's own kinds named first. A name the
 * world gives (world.ts) says an earlier run left it.
 */
export async function reservedIdsInUse(w: Writer, ids: Partial<RosteringOrganizations>): Promise<RosteringRun['taken']> {
  const taken: NonNullable<RosteringRun['taken']> = {};
  for (const [field, h] of Object.entries(await holdersOf(w, ids)) as [keyof RosteringOrganizations, Holder][]) {
    taken[field] = `is already the deployment's ${h.kind} "${h.name}"${writtenBySuites(h.name) ? ', which an earlier run of the suites left' : ''}`;
  }
  return taken;
}

/** Every writer's records, the writers at the same time (each writes its own data API). */
async function cleanup(writers: Writer[]): Promise<void> {
  const failures: string[] = [];
  await Promise.all(writers.map((w) => w.cleanup().catch((err: Error) => { failures.push(err.message); })));
  if (failures.length) throw new Error(failures.join('\n'));
}

/** What the global setup prepared (workers). */
export function rosteringRun(): RosteringRun {
  const raw = process.env[ROSTERING_RUN_ENV];
  return raw ? (JSON.parse(raw) as RosteringRun) : { tokens: {}, districts: {} };
}
