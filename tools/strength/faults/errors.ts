/** Faulty deployments that break data.errors. */
import { randomUUID } from 'node:crypto';
import registry from '../../../spec/errors/problem-types.json' with { type: 'json' };
import { dataPath, header, setJson } from '../proxy.js';
import { isData, item, problemOf, problem, empty, type Fault } from './helpers.js';
import { model } from './served-model.js';

/** A routing error: a 405, or a 404 for a path that names no resource of the model. */
const routingError = (req: Parameters<typeof dataPath>[0], status: number) => {
  if (status === 405) return true;
  const p = dataPath(req);
  return status === 404 && (!p || !model.byEndpoint.has(p.resource.toLowerCase()));
};

/** Upstream's problem-type prefix, which the upstream-named configurations are set to. */
const UPSTREAM_PREFIX = 'urn:ed-fi:api:';

export const errorsFaults: Fault[] = [
  {
    name: 'problem-type-wrong-prefix', family: 'data.errors', suites: ['errors'],
    description: 'problem types carry the other naming\'s prefix (urn:ed-fi:api: where the seed\'s urn:core:api: is configured, and the other way round) instead of the configured one',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const type = String(p?.type ?? '');
      const [from, to] = type.startsWith(registry.prefix) ? [registry.prefix, UPSTREAM_PREFIX] : [UPSTREAM_PREFIX, registry.prefix];
      if (p && type.startsWith(from)) { p.type = `${to}${type.slice(from.length)}`; setJson(res, p); }
    },
  },
  {
    name: 'conflict-409-as-400', family: 'data.errors', suites: ['errors'],
    description: 'conflicts (unresolved reference, dependent item, duplicate identity) answer 400 instead of 409',
    response: (res, req) => { const p = isData(req) && res.status === 409 ? problemOf(res) : undefined; if (p) { res.status = 400; p.status = 400; setJson(res, p); } },
  },
  {
    name: 'problem-correlation-id-missing', family: 'data.errors', suites: ['errors'],
    description: 'problem bodies carry no correlationId',
    response: (res, req) => { const p = isData(req) ? problemOf(res) : undefined; if (p && 'correlationId' in p) { delete p.correlationId; setJson(res, p); } },
  },
  {
    name: 'problem-content-type-without-charset', family: 'data.errors', suites: ['errors'],
    description: 'problem responses are served as application/problem+json without charset',
    response: (res, req) => { if (isData(req) && problemOf(res)) res.headers['content-type'] = 'application/problem+json'; },
  },
  {
    name: 'not-found-json-without-charset', family: 'data.errors', suites: ['errors'],
    description: '404 problems (unknown id, unknown path) are served as application/json without a charset',
    response: (res, req) => { if (isData(req) && res.status === 404 && problemOf(res)) res.headers['content-type'] = 'application/json'; },
  },
  {
    name: 'late-error-kinds-problem-json', family: 'data.errors', suites: ['errors'],
    description: 'key-change, dependent-item and non-unique-identity problems and 403s are served as application/problem+json (every other problem as the seed says)',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      if (p && (res.status === 403 || /(key-change-not-supported|dependent-item-exists|non-unique-identity)$/.test(String(p.type)))) res.headers['content-type'] = 'application/problem+json; charset=utf-8';
    },
  },
  {
    name: 'correlation-id-not-echoed-on-routing-errors', family: 'data.errors', suites: ['errors'], expect: 'conformant', warns: ['data.errors.correlation-id-echoed'],
    description: 'routing errors (405, 404 for an unknown path) carry a generated correlationId instead of the correlation-id request header; every other problem echoes it',
    response: (res, req) => {
      const p = isData(req) && routingError(req, res.status) ? problemOf(res) : undefined;
      if (p && header(req, 'correlation-id')) { p.correlationId = randomUUID(); setJson(res, p); }
    },
  },
  {
    name: 'validation-errors-first-only', family: 'data.errors', suites: ['errors'],
    description: 'a 400 data-validation-failed reports only the first failure',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, unknown> | undefined;
      if (!errors || Object.keys(errors).length < 2) return;
      const [first] = Object.entries(errors);
      p!.validationErrors = Object.fromEntries([first]);
      setJson(res, p);
    },
  },
  {
    name: 'correlation-id-header-ignored', family: 'data.errors', suites: ['errors'], expect: 'conformant', warns: ['data.errors.correlation-id-echoed'],
    description: 'the correlation-id request header is not echoed: every problem gets a generated correlationId',
    request: (req) => { if (isData(req)) delete req.headers['correlation-id']; },
  },
  {
    name: 'problem-stack-trace', family: 'data.errors', suites: ['errors'],
    description: '400 problems carry the parser\'s stack trace in a debug member',
    response: (res, req) => {
      const p = isData(req) && res.status === 400 ? problemOf(res) : undefined;
      if (p) { p.debug = 'SyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at readBody (/app/src/http/body.ts:52:19)'; setJson(res, p); }
    },
  },
  {
    name: 'server-error-detail-leaks', family: 'data.errors', suites: ['errors'],
    description: 'a 500 carries the exception and its source location instead of the fixed detail',
    response: (res, req) => {
      const p = isData(req) && res.status === 500 ? problemOf(res) : undefined;
      if (p) { p.detail = "TypeError: Cannot read properties of undefined (reading 'id') at upsert (/app/src/handlers/upsert.ts:41:17)"; setJson(res, p); }
    },
  },
  {
    name: 'near-miss-id-500', family: 'data.errors', suites: ['errors'],
    description: 'an item id one hex digit short of or over a GUID crashes the id parser: 500 instead of 400',
    response: (res, req) => {
      const id = item(req) ? decodeURIComponent(dataPath(req)!.rest[0]) : '';
      if (/^[0-9a-f]{31}$|^[0-9a-f]{33}$/i.test(id)) Object.assign(res, problem('system'));
    },
  },
  {
    name: 'item-not-found-detail-generic', family: 'data.errors', suites: ['errors'],
    description: 'a 404 for an unknown id on GET, PUT or DELETE carries the generic detail, not upstream\'s words for each method',
    response: (res, req) => {
      const p = item(req) && res.status === 404 ? problemOf(res) : undefined;
      if (p) { p.detail = 'The specified data could not be found.'; setJson(res, p); }
    },
  },
  // Conforming deviations: the seed allows them, so the verdict must stay conformant.
  {
    name: 'not-found-empty-body', family: 'data.errors', suites: ['errors', 'versioning', 'put', 'delete', 'query-paging', 'descriptors'], expect: 'conformant',
    description: 'every 404 of the data API has an empty body (the seed shows no 404 body: decision 6)',
    response: (res, req) => { if (isData(req) && res.status === 404) empty(res, 404); },
  },
  {
    name: 'problem-content-type-spelled-otherwise', family: 'data.errors', suites: ['errors'], expect: 'conformant',
    description: 'problems are served as application/json;charset=UTF-8 (no space, the charset in capitals): the same media type as the seed\'s',
    response: (res, req) => { if (isData(req) && problemOf(res)) res.headers['content-type'] = 'application/json;charset=UTF-8'; },
  },
  {
    name: 'non-unique-entry-names-members', family: 'data.errors', suites: ['errors', 'put'], expect: 'conformant',
    description: 'the errors entry of a non-unique identity names the key by its members, not its values',
    response: (res, req) => {
      const p = isData(req) && res.status === 409 ? problemOf(res) : undefined;
      if (!p || !String(p.type).endsWith('non-unique-identity')) return;
      const members = [...new Set([...String((p.errors as string[] | undefined)?.join(' ') ?? '').matchAll(/(\w+) = /g)].map((m) => m[1]))];
      p.errors = [`Another item already has the same ${members.join(', ') || 'identifying values'}.`];
      setJson(res, p);
    },
  },
  {
    name: 'errors-absent-where-optional', family: 'data.errors', suites: ['errors', 'validation/body.spec.ts'], expect: 'conformant',
    description: '405, 412 and 415 problems carry no errors member (the seed gives errors entries to 401, bad-request and non-unique identity only)',
    response: (res, req) => {
      const p = isData(req) && [405, 412, 415].includes(res.status) ? problemOf(res) : undefined;
      if (p && 'errors' in p) { delete p.errors; setJson(res, p); }
    },
  },
  {
    name: 'problem-detail-reworded', family: 'data.errors', suites: ['errors'], expect: 'conformant', warns: ['data.errors.detail-wording'],
    description: 'every problem detail is worded otherwise, but where the seed gives it content (a bad request\'s detail refers to errors, an unresolved reference\'s names the type, a limit refusal\'s names the range)',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      if (!p || /(bad-request|unresolved-reference|parameter-validation-failed)$/.test(String(p.type))) return;
      p.detail = `The request was refused (${res.status}).`;
      setJson(res, p);
    },
  },
  {
    name: 'validation-messages-reworded', family: 'data.errors', suites: ['errors', 'validation', 'descriptors', 'references'], expect: 'conformant', warns: ['data.validation.required-message-wording'],
    description: 'every validationErrors message reads "This value is not accepted." (paths unchanged)',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, string[]> | undefined;
      if (!errors) return;
      p!.validationErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.map(() => 'This value is not accepted.')]));
      setJson(res, p);
    },
  },
];
