import type { HttpClient, HttpResponse } from '../_harness/http.js';
import { rule } from '../_harness/rules.js';
import { credentials, target } from '../_harness/target.js';
import type { ClientCredentials } from '../targets/types.js';
import { flowsDescription } from './_support/flows.js';
import { identity, parseJson, recordsIn, type Rec } from './_support/read.js';
import { district, flow, tokenOn } from './_support/routes.js';
import { PREFIX, RESOURCES, craftToken, rosteringOrigin, scope, seaToken } from './_support/service.js';
import { test, expect } from './_support/test.js';
import { key, type World } from './_support/world.js';

/**
 * The rostering service is read-only and issues no tokens (seed 000: "the separate read-only
 * rostering service"; seed 001: "The service issues no tokens"; decision 40). Every write method,
 * on every resource's collection and item, under the target's service and every routing flow's
 * route prefix, is refused with a 4xx and changes nothing; 405 with Allow is upstream's way of
 * saying so (SHOULD). No path of the service answers a client-credentials request with a token.
 */
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Where writes are tried: an origin, a route prefix (tenant, context) and a token that reads there. */
interface Place { name: string; origin: string; route: string; token: string }

/** The target's service (read by the world's state agency) and each routing flow's route prefix. */
async function places(request: HttpClient, world: World): Promise<Place[]> {
  const out: Place[] = [{ name: 'the rostering service', origin: rosteringOrigin(), route: '', token: await seaToken(request, world) }];
  const flows = flowsDescription();
  // Both contexts' entries, as the flows' declared clients have them.
  const entries = (f: { contextKey: string; instances: Record<'data' | 'other', { id: number; context: string }> }) =>
    (['data', 'other'] as const).map((w) => ({ id: f.instances[w].id, context: { key: f.contextKey, value: f.instances[w].context } }));
  if (flows.single && flows.single.rostering !== rosteringOrigin()) {
    out.push({ name: 'the single flow', origin: flows.single.rostering, route: '', token: await tokenOn(request, 'single', district('single'), [{ id: flows.single.instances.plain }]) });
  }
  if (flows.context) {
    const f = flow('context');
    out.push({ name: 'the context flow', origin: f.rostering, route: `/${f.instances.data.context}`, token: await tokenOn(request, 'context', district('context'), entries(f).reverse()) });
  }
  if (flows.tenant) {
    const f = flow('tenant');
    out.push({ name: 'the tenant flow', origin: f.rostering, route: `/${f.dataTenant}`, token: await tokenOn(request, 'tenant', district('tenant'), [{ id: f.instance }], f.dataTenant) });
  }
  if (flows.tenantContext) {
    const f = flow('tenantContext');
    out.push({ name: 'the tenant-context flow', origin: f.rostering, route: `/${f.dataTenant}/${f.instances.data.context}`, token: await tokenOn(request, 'tenantContext', district('tenantContext'), entries(f), f.dataTenant) });
  }
  return out;
}

const at = (p: Place, path: string) => `${p.origin}${p.route}${PREFIX}/${path}`;

/** What a place serves of a resource: the status, and each record by its identity (what a write could change). */
async function served(request: HttpClient, p: Place, resource: string): Promise<{ status: number; records: Map<string, string>; first?: Rec }> {
  const res = await request.get(at(p, resource), { headers: { Authorization: `Bearer ${p.token}` } });
  const text = await res.text();
  const records = recordsIn(parseJson(text));
  return { status: res.status(), records: new Map((records ?? [{ body: text }]).map((r) => [identity(r), JSON.stringify(r)])), first: records?.[0] };
}

/** How a resource changed between two reads: records gone, added or changed, by identity. */
function changes(before: Awaited<ReturnType<typeof served>>, after: Awaited<ReturnType<typeof served>>): string[] {
  const out = before.status === after.status ? [] : [`status ${before.status} became ${after.status}`];
  for (const [id, json] of before.records) if (!after.records.has(id)) out.push(`${id.slice(0, 80)} gone`); else if (after.records.get(id) !== json) out.push(`${id.slice(0, 80)} changed`);
  for (const id of after.records.keys()) if (!before.records.has(id)) out.push(`${id.slice(0, 80)} added`);
  return out;
}

/**
 * Every write attempt at a place: each method on each resource's collection and one item, with
 * a body that would change it. A resource's attempts go together: one after another, the
 * attempts at every place took 23 s of a test's 30 against a deployment 40 ms away.
 */
async function* writeAttempts(request: HttpClient, p: Place, token = p.token): AsyncGenerator<{ what: string; res: HttpResponse }> {
  const marker = key('written');
  for (const resource of RESOURCES) {
    const { first } = await served(request, p, resource);
    const id = typeof first?.sourcedId === 'string' ? first.sourcedId : '0123456789abcdef0123456789abcdef';
    const body = { ...(first ?? {}), sourcedId: marker, name: marker, title: marker, givenName: marker };
    const attempts = [resource, `${resource}/${encodeURIComponent(id)}`].flatMap((path) => WRITES.map((method) => ({ path, method })));
    const answers = await Promise.all(attempts.map(({ path, method }) =>
      request.fetch(at(p, path), { method, headers: { Authorization: `Bearer ${token}` }, ...(method === 'DELETE' ? {} : { data: body }), maxRedirects: 0 })));
    for (const [i, { path, method }] of attempts.entries()) yield { what: `${method} ${p.route}${PREFIX}/${path} (${p.name})`, res: answers[i] };
  }
}

/** Each attempt refused with a 4xx, and every resource at each place served as before. */
async function refusedAndUnchanged(request: HttpClient, list: Place[], token?: string): Promise<void> {
  for (const p of list) {
    const before = await Promise.all(RESOURCES.map((r) => served(request, p, r)));
    for await (const { what, res } of writeAttempts(request, p, token)) {
      expect(res.status(), `${what}: ${(await res.text()).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status(), what).toBeLessThan(500);
    }
    const after = await Promise.all(RESOURCES.map((r) => served(request, p, r)));
    for (const [i, r] of RESOURCES.entries()) expect(changes(before[i], after[i]), `${r} at ${p.name}, after the writes`).toEqual([]);
  }
}

test.describe('the rostering service is read-only', () => {
  test('POST, PUT, PATCH and DELETE are refused with a 4xx on every resource, collection and item, under every route prefix, and change nothing', rule('roster.roster-resources.writes-refused'), async ({ request, world }) => {
    await refusedAndUnchanged(request, await places(request, world));
  });

  test('writes are refused even with a token carrying write scopes', rule('roster.roster-resources.writes-refused'), async ({ request, world }) => {
    // Upstream's issuer knows .createput and .delete scopes (research §7); none may open a write here.
    const base = target.rostering?.scopeBase ?? '';
    const names = ['roster-core', 'roster', 'roster-demographics'].flatMap((n) => ['createput', 'delete'].map((w) => `${base}${n}.${w}`));
    const token = await craftToken(request, { orgs: [world.sea], scope: [scope('core'), scope('demographics'), ...names].join(' ') });
    const [service] = await places(request, world);
    await refusedAndUnchanged(request, [service], token);
  });

  test('a write is answered 405 with an Allow header naming GET', rule('roster.roster-resources.writes-405-allow'), async ({ request, world }) => {
    for (const p of await places(request, world)) {
      for await (const { what, res } of writeAttempts(request, p)) {
        expect(res.status(), what).toBe(405);
        const allow = (res.headers().allow ?? '').split(',').map((m) => m.trim().toUpperCase());
        expect(allow, `${what}: Allow`).toContain('GET');
        expect(allow, `${what}: Allow`).not.toContain(what.split(' ')[0]);
      }
    }
  });
});

/** Paths a token endpoint often has, under a prefix. */
const TOKEN_PATHS = ['/oauth/token', '/oauth2/token', '/connect/token', '/token', '/auth/token', '/api/oauth/token', '/oauth/access_token'];

/** Whether a response hands out a token: a 2xx whose body carries an access_token or a JWT. */
function issuesToken(status: number, text: string): boolean {
  if (status < 200 || status >= 300) return false;
  const body = parseJson(text) as { access_token?: unknown } | undefined;
  return typeof body?.access_token === 'string' || /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*/.test(text);
}

/** A client-credentials request, credentials in a Basic header or in the form. */
const tokenRequest = (request: HttpClient, url: string, c: { key: string; secret: string }, inBody: boolean) => request.post(url, {
  ...(inBody ? {} : { headers: { Authorization: `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}` } }),
  form: { grant_type: 'client_credentials', ...(inBody ? { client_id: c.key, client_secret: c.secret } : {}) },
  maxRedirects: 0,
});

test.describe('the rostering service issues no tokens', () => {
  test('no path of the service answers a client-credentials request with a token', rule('roster.roster-auth.issues-no-tokens'), async ({ request, world }) => {
    const clients = [target.clients.primary, Object.values(target.rostering?.clients ?? {})[0]].map((c) => credentials(c as ClientCredentials)).filter((c): c is { key: string; secret: string } => !!c);
    // The control: the data API's token endpoint answers the same request with a token.
    const control = await tokenRequest(request, `${target.dataApi.baseUrl}/oauth/token`, clients[0], false);
    expect(issuesToken(control.status(), await control.text()), 'the data API issues a token for this request').toBe(true);
    const dataApiPath = `${new URL(target.dataApi.baseUrl).pathname.replace(/\/$/, '')}/oauth/token`;
    for (const p of await places(request, world)) {
      const paths = [...TOKEN_PATHS.flatMap((t) => [`${p.route}${t}`, `${p.route}${PREFIX}${t}`]), dataApiPath];
      for (const path of paths) {
        for (const [c, inBody] of [[clients[0], false], [clients[0], true], ...clients.slice(1).map((x) => [x, false] as const)] as const) {
          const res = await tokenRequest(request, `${p.origin}${path}`, c, inBody);
          expect(issuesToken(res.status(), await res.text()), `POST ${p.origin}${path} (${inBody ? 'credentials in the form' : 'Basic'}): ${res.status()}`).toBe(false);
        }
      }
    }
  });
});
