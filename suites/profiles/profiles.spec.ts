import { test, expect } from '../_harness/data.js';
import { capability, notApplicable, profileMediaType } from '../_harness/capabilities.js';
import { keysOf, resourceOf } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/**
 * Profiles (seed Endpoints rule 8): readable types on reads (Accept), writable types on writes
 * (Content-Type). Needs `clients.profiled` and `capabilities.profile` (which resource the profile
 * covers, which member it leaves out of reads and of writes, and a resource it covers read-only).
 */
test.describe('profile media types', () => {
  test('serves GET with the readable type and accepts POST with the writable type, both spelled application/vnd.core.<resource>.<profile>.<readable|writable>+json', rule('data.profiles.media-type-format'), async ({ as, data }) => {
    const p = capability('profile');
    const client = as('profiled');
    const endpoint = resourceOf(p.resource).endpoint;
    const readable = profileMediaType(p.resource, p.name, 'readable');
    const read = await client.get(`${endpoint}?limit=1`, { Accept: readable });
    expect(read.status()).toBe(200);
    expect(read.headers()['content-type']).toMatch(/^application\/(vnd\.[^;]+\.readable\+json|json)/i);
    const res = await client.post(endpoint, await data.body(p.resource), { 'Content-Type': profileMediaType(p.resource, p.name, 'writable') });
    expect(res.status()).toBe(201);
    data.api.track(res.headers().location);
    // GET by id with the readable type is labelled like the collection read.
    const item = await client.get(res.headers().location, { Accept: readable });
    expect(item.status()).toBe(200);
    expect(item.headers()['content-type']).toMatch(/^application\/(vnd\.[^;]+\.readable\+json|json)/i);
  });

  test('limits a GET with the readable type to the members the profile makes readable', rule('data.profiles.readable-type-on-get'), async ({ as, data }) => {
    const p = capability('profile');
    const created = await data.create(p.resource, { [p.unreadableMember]: unreadableValue(p.unreadableMember) });
    const res = await as('profiled').get(created.url, { Accept: profileMediaType(p.resource, p.name, 'readable') });
    expect(res.status()).toBe(200);
    const got = (await res.json()) as Record<string, unknown>;
    expect(got[p.unreadableMember]).toBeUndefined();
    expect(got.id).toBe(created.id);
    for (const key of created.resource.identity.map((k) => k.path.split('.')[1])) expect(got[key], key).toBeDefined();
  });

  test('limits a GET of the collection with the readable type the same way, in every item', rule('data.profiles.readable-type-on-get'), async ({ as, data }) => {
    const p = capability('profile');
    const created = await data.create(p.resource, { [p.unreadableMember]: unreadableValue(p.unreadableMember) });
    const query = Object.entries(created.keys).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    const res = await as('profiled').get(`${created.url.replace(/\/[^/]+$/, '')}?${query}`, { Accept: profileMediaType(p.resource, p.name, 'readable') });
    expect(res.status(), await res.text()).toBe(200);
    const items = (await res.json()) as Record<string, unknown>[];
    expect(items.map((i) => i.id)).toEqual([created.id]);
    for (const got of items) expect(got[p.unreadableMember]).toBeUndefined();
  });

  test('accepts a POST with the writable type and stores only the writable members', rule('data.profiles.writable-type-on-write'), async ({ api, as, data }) => {
    const p = capability('profile');
    const body = await data.body(p.resource, { [p.unwritableMember]: unreadableValue(p.unwritableMember) });
    const res = await as('profiled').post(resourceOf(p.resource).endpoint, body, { 'Content-Type': profileMediaType(p.resource, p.name, 'writable') });
    expect(res.status()).toBe(201);
    api.track(res.headers().location);
    const stored = (await (await api.get(res.headers().location)).json()) as Record<string, unknown>;
    expect(stored[p.unwritableMember]).toBeUndefined();
  });

  test('accepts a PUT with the writable type, storing the writable members and not the others', rule('data.profiles.writable-type-on-write'), async ({ api, as, data }) => {
    const p = capability('profile');
    const created = await data.create(p.resource);
    const sent = unreadableValue(p.unwritableMember);
    const member = changeableMember(p);
    const changed = { ...created.body, [member.name]: member.value('the writable profile'), [p.unwritableMember]: sent };
    const res = await as('profiled').put(created.url, changed, { 'Content-Type': profileMediaType(p.resource, p.name, 'writable') });
    expect(res.status(), await res.text()).toBe(204);
    const stored = (await (await api.get(created.url)).json()) as Record<string, unknown>;
    expect(stored[member.name], `${member.name}, a writable member, is stored`).toBe(changed[member.name]);
    expect(stored[p.unwritableMember], `${p.unwritableMember}, which the profile does not make writable, is not stored as sent`).not.toBe(sent);
  });

  test('refuses a POST whose Content-Type is a readable profile type with 400 profile:invalid-profile-usage', rule('data.profiles.readable-type-on-write-400'), async ({ as, data }) => {
    const p = capability('profile');
    const body = await data.body(p.resource);
    await expectProblem(await as('profiled').post(resourceOf(p.resource).endpoint, body, { 'Content-Type': profileMediaType(p.resource, p.name, 'readable') }), 'profile:invalid-profile-usage');
  });

  test('refuses a PUT whose Content-Type is a readable profile type with 400 profile:invalid-profile-usage', rule('data.profiles.readable-type-on-write-400'), async ({ as, data }) => {
    const p = capability('profile');
    const created = await data.create(p.resource);
    await expectProblem(await as('profiled').put(created.url, created.body, { 'Content-Type': profileMediaType(p.resource, p.name, 'readable') }), 'profile:invalid-profile-usage');
  });

  test('refuses a profile type not assigned to the caller with 403 security:data-policy:incorrect-usage', rule('data.profiles.unassigned-profile-403'), async ({ api }) => {
    const p = capability('profile');
    await expectProblem(await api.get(`${resourceOf(p.resource).endpoint}?limit=1`, { Accept: profileMediaType(p.resource, p.name, 'readable') }), 'security:data-policy:incorrect-usage');
  });

  test('refuses an unassigned profile type on the item route and on writes too: GET by id, POST and PUT', rule('data.profiles.unassigned-profile-403'), async ({ api, data }) => {
    const p = capability('profile');
    const created = await data.create(p.resource);
    const endpoint = resourceOf(p.resource).endpoint;
    const writable = profileMediaType(p.resource, p.name, 'writable');
    await expectProblem(await api.get(created.url, { Accept: profileMediaType(p.resource, p.name, 'readable') }), 'security:data-policy:incorrect-usage');
    await expectProblem(await api.post(endpoint, created.body, { 'Content-Type': writable }), 'security:data-policy:incorrect-usage');
    await expectProblem(await api.put(created.url, created.body, { 'Content-Type': writable }), 'security:data-policy:incorrect-usage');
  });

  test('refuses a POST with the writable type of a profile that only reads the resource with 400 profile:invalid-method-usage', rule('data.profiles.invalid-method-usage-400'), async ({ as, data }) => {
    const p = capability('profile');
    const body = await data.body(p.readOnlyResource);
    await expectProblem(await as('profiled').post(resourceOf(p.readOnlyResource).endpoint, body, { 'Content-Type': profileMediaType(p.readOnlyResource, p.name, 'writable') }), 'profile:invalid-method-usage');
  });

  test('refuses a GET whose Accept is a writable profile type with 400 profile:invalid-method-usage', rule('data.profiles.invalid-method-usage-400'), async ({ as }) => {
    const p = capability('profile');
    await expectProblem(await as('profiled').get(`${resourceOf(p.resource).endpoint}?limit=1`, { Accept: profileMediaType(p.resource, p.name, 'writable') }), 'profile:invalid-method-usage');
  });

  test('refuses a plain application/json request for a resource the caller\'s profile covers with 403 incorrect-usage', rule('data.profiles.covering-profile-required-403'), async ({ as }) => {
    const p = capability('profile');
    await expectProblem(await as('profiled').get(`${resourceOf(p.resource).endpoint}?limit=1`, { Accept: 'application/json' }), 'security:data-policy:incorrect-usage');
  });

  test('refuses plain application/json on the item route and on writes too, for a resource the caller\'s profile covers: GET by id, POST and PUT with 403 incorrect-usage, storing nothing', rule('data.profiles.covering-profile-required-403'), async ({ api, as, data }) => {
    // The profile covers the resource for reads and for writes (capability profile: its unreadable and unwritable members).
    const p = capability('profile');
    const client = as('profiled');
    const endpoint = resourceOf(p.resource).endpoint;
    const created = await data.create(p.resource);
    await expectProblem(await client.get(created.url, { Accept: 'application/json' }), 'security:data-policy:incorrect-usage');
    const fresh = await data.body(p.resource);
    await expectProblem(await client.post(endpoint, fresh, { 'Content-Type': 'application/json' }), 'security:data-policy:incorrect-usage');
    const query = Object.entries(keysOf(resourceOf(p.resource), fresh)).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    expect(await (await api.get(`${endpoint}?${query}`)).json(), 'the POST stored nothing').toEqual([]);
    const member = changeableMember(p);
    const changed = { ...created.body, [member.name]: member.value('plain JSON') };
    await expectProblem(await client.put(created.url, changed, { 'Content-Type': 'application/json' }), 'security:data-policy:incorrect-usage');
    expect(((await (await api.get(created.url)).json()) as Record<string, unknown>)[member.name], 'the PUT changed nothing').toEqual(created.body[member.name]);
  });
});

/**
 * A string member of the profile's resource that the profile leaves readable and writable and that
 * is no key (not the descriptor's namespace or code value either), with a new value for it.
 */
function changeableMember(p: { resource: string; unreadableMember: string; unwritableMember: string }): { name: string; value: (why: string) => string } {
  const found = Object.entries(resourceOf(p.resource).fields).find(([name, f]) => f.kind === 'string' && !f.identity && !f.readOnly
    && ![p.unreadableMember, p.unwritableMember, 'namespace', 'codeValue'].includes(name));
  if (!found) notApplicable(`needs a plain string member of ${p.resource} besides the profile's excluded ones`);
  const [name, f] = found;
  return { name, value: (why) => `Changed by ${why}`.slice(0, f.kind === 'string' ? f.maxLength ?? 60 : 60) };
}

/** A value for a member the profile leaves out (descriptor members are all strings or dates). */
function unreadableValue(member: string): string {
  return /date/i.test(member) ? '2030-06-30' : `conformance ${member}`;
}
