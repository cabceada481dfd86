/**
 * The data API's routing takes its fast paths without changing an answer: parseId and
 * resolveRoute agree, on generated spellings, with the straightforward versions they replaced
 * (kept here as oracles): patterns, a lower-cased copy of every segment, a decode of every id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { Problem } from '../http/problems.js';
import { parseId, resolveRoute } from './routes.js';

function oracleParseId(raw: string): string {
  const bare = /^\{.*\}$/.test(raw) ? raw.slice(1, -1) : raw;
  const hex = bare.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex) || (bare.includes('-') && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(bare))) throw new Error('invalid');
  return hex;
}

function oracleRoute(model: CompiledModel, rest: string, segment: string) {
  const segments = rest.replace(/\/+$/, '').split('/');
  if (segments.length < 2 || segments.length > 3) return 'problem not-found';
  const [ns, endpoint, third] = segments;
  if (ns.toLowerCase() !== segment.toLowerCase()) return 'problem not-found';
  const resource = model.byEndpoint.get(endpoint.toLowerCase());
  if (!resource) return 'problem not-found';
  if (third === undefined) return { kind: 'collection', resource };
  const lower = third.toLowerCase();
  if (lower === 'deletes') return { kind: 'deletes', resource };
  if (lower === 'keychanges') return { kind: 'keyChanges', resource };
  if (lower === 'partitions') return { kind: 'partitions', resource };
  let id = third;
  try { id = decodeURIComponent(third); } catch { /* kept */ }
  return { kind: 'item', resource, id };
}

/** What a call gives: its value, or the problem it throws (the oracles throw plain errors). */
const outcome = <T>(f: () => T): T | string => {
  try { return f(); } catch (err) { return err instanceof Problem ? `problem ${err.suffix}` : 'refused'; }
};

const HEX = '0123456789abcdef';
const id = fc.array(fc.constantFrom(...HEX), { minLength: 32, maxLength: 32 }).map((c) => c.join(''));
const spelling = fc.tuple(id, fc.constantFrom('plain', 'upper', 'dashed', 'braced', 'DASHED', 'mangled'), fc.nat(40)).map(([h, how, at]) => {
  const dashed = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  switch (how) {
    case 'upper': return h.toUpperCase();
    case 'dashed': return dashed;
    case 'braced': return `{${dashed}}`;
    case 'DASHED': return dashed.toUpperCase();
    case 'mangled': return `${h.slice(0, at % 33)}${'g-{}%'[at % 5]}${h.slice(at % 33)}`.slice(0, 32 + (at % 3));
    default: return h;
  }
});

test('parseId takes every spelling as the pattern-based version did, and refuses the same ones', () => {
  fc.assert(fc.property(fc.oneof(spelling, fc.string({ maxLength: 40 })), (raw) => {
    const expected = outcome(() => oracleParseId(raw));
    assert.equal(outcome(() => parseId(raw)), expected === 'refused' ? 'problem bad-request:data-validation-failed' : expected, raw);
  }), { numRuns: 5000 });
});

test('resolveRoute resolves every spelling of a path as the copying version did', () => {
  const resource = { name: 'studentSchoolAssociation' } as CompiledResource;
  const model = { byEndpoint: new Map([['studentschoolassociations', resource]]) } as unknown as CompiledModel;
  const part = (options: string[]) => fc.constantFrom(...options);
  const third = fc.oneof(part(['deletes', 'DELETES', 'keyChanges', 'keychanges', 'KEYCHANGES', 'partitions', 'Partitions', 'delete', 'keyChange', '%41%42', '%zz', '%', 'a%2Fb', '']), spelling);
  const rest = fc.tuple(part(['ed-fi', 'Ed-Fi', 'ED-FI', 'tpdm', '']), part(['studentSchoolAssociations', 'studentschoolassociations', 'STUDENTSCHOOLASSOCIATIONS', 'schools']), fc.option(third), fc.option(fc.string({ maxLength: 4 })), part(['', '/', '//']))
    .map(([ns, endpoint, t, extra, slashes]) => [ns, endpoint, ...(t === null ? [] : [t]), ...(extra === null ? [] : [extra])].join('/') + slashes);
  fc.assert(fc.property(rest, (path) => {
    assert.deepEqual(outcome(() => resolveRoute(model, path, 'ed-fi')), oracleRoute(model, path, 'ed-fi'), path);
  }), { numRuns: 5000 });
});
