/** Faulty deployments that break data.validation. */
import { dataPath, eachObject, header, setJson } from '../proxy.js';
import { isData, isWrite, isJson, problemOf, editJson, editRequestJson, type Fault } from './helpers.js';

export const validationFaults: Fault[] = [
  {
    name: 'content-type-not-checked', family: 'data.validation', suites: ['validation'],
    description: 'a write body without Content-Type, or with a non-JSON one, is read as JSON (no 415)',
    request: (req) => { if (dataPath(req) && isWrite(req) && !isJson(req)) req.headers['content-type'] = 'application/json'; },
  },
  {
    name: 'validation-path-without-index', family: 'data.validation', suites: ['validation'],
    description: 'validationErrors paths leave out array indexes ($.items.field instead of $.items[1].field)',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      if (!p?.validationErrors) return;
      p.validationErrors = Object.fromEntries(Object.entries(p.validationErrors as object).map(([k, v]) => [k.replace(/\[\d+\]/g, ''), v]));
      setJson(res, p);
    },
  },
  {
    name: 'int64-as-string', family: 'data.validation', suites: ['validation'],
    description: 'integers beyond the int32 range are returned as JSON strings',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => { for (const [k, v] of Object.entries(o)) if (Number.isInteger(v) && Math.abs(v as number) > 2147483647) o[k] = String(v); }));
    },
  },
  {
    name: 'int32-overflow-clamped', family: 'data.validation', suites: ['validation'],
    description: 'an integer above 2147483647 in an int32 field is clamped to 2147483647 instead of refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (k === 'totalInstructionalDays' && typeof v === 'number' && v > 2147483647) { o[k] = 2147483647; changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'dangerous-markup-stripped', family: 'data.validation', suites: ['validation'],
    description: 'markup tags in strings are stripped and the write accepted instead of refused with 400',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (typeof v === 'string' && /<\/?[a-z!?][^>]*>/i.test(v)) { o[k] = v.replace(/<\/?[a-z!?][^>]*>/gi, ''); changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'utf16-body-transcoded', family: 'data.validation', suites: ['validation'],
    description: 'a body declared and encoded as UTF-16 is transcoded and accepted instead of refused with 400',
    request: (req) => {
      const t = header(req, 'content-type') ?? '';
      if (!dataPath(req) || !/charset=utf-16/i.test(t)) return;
      req.body = Buffer.from(req.body.toString('utf16le').replace(/^\ufeff/, ''), 'utf8');
      req.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'int32-underflow-clamped', family: 'data.validation', suites: ['validation'],
    description: 'an integer below -2147483648 in an int32 field is clamped to -2147483648 instead of refused (the lower bound unchecked)',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (k === 'totalInstructionalTime' && typeof v === 'number' && v < -2147483648) { o[k] = -2147483648; changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'min-length-not-checked', family: 'data.validation', suites: ['validation'],
    description: 'the minimum length is checked off by one: a string one character short of it is stored (padded) instead of refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => typeof b.weekIdentifier === 'string' && b.weekIdentifier.length === 4 && Boolean((b.weekIdentifier = b.weekIdentifier.padEnd(5, 'w'))));
    },
  },
  {
    name: 'date-time-accepted-as-date', family: 'data.validation', suites: ['validation'],
    description: 'a date-time sent where a date is expected is cut down to its date instead of refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => {
          for (const [k, v] of Object.entries(o)) if (!k.startsWith('_') && /Date$/.test(k) && typeof v === 'string' && /^\d{4}-\d\d-\d\d[T ]/.test(v)) { o[k] = v.slice(0, 10); changed = true; }
        });
        return changed;
      });
    },
  },
  {
    name: 'json-look-alike-content-types-accepted', family: 'data.validation', suites: ['validation'],
    description: 'any Content-Type that mentions json (application/jsonx, text/json, application/json-patch+json) is read as application/json',
    request: (req) => {
      const type = header(req, 'content-type');
      if (dataPath(req) && isWrite(req) && type && /json/i.test(type) && !/^application\/json\s*(;|$)/i.test(type) && !/^application\/vnd\./i.test(type)) req.headers['content-type'] = 'application/json';
    },
  },
];
