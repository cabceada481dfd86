/** Faulty deployments that break data.references. */
import { model } from './served-model.js';
import { keyMaxLength } from '../../../spec/model/key-lengths.js';
import { dataPath, eachObject, header, jsonOf, pathOf, setJson } from '../proxy.js';
import { isData, isWrite, collection, item, problem, problemOf, hasType, editJson, editRequestJson, objectsAt, type Fault } from './helpers.js';

/** The targets whose key types the suites checked before every shape was (academicWeek, balanceSheetDimension, school). */
const OLD_TYPE_SHAPES = new Set(['academicWeek', 'balanceSheetDimension', 'school']);

export const referencesFaults: Fault[] = [
  {
    name: 'unresolved-reference-detail-generic', family: 'data.references', suites: ['references'],
    description: 'the 409 for an unresolved reference names no referenced type (generic detail, no errors)',
    response: (res, req) => {
      const p = isData(req) && hasType(res, 'unresolved-reference') ? problemOf(res) : undefined;
      if (!p) return;
      p.detail = 'The request conflicts with the current state of the data.';
      delete p.errors;
      setJson(res, p);
    },
  },
  {
    name: 'reference-extra-member', family: 'data.references', suites: ['references'],
    description: 'reference objects in responses carry a member besides the key fields and link',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => {
        for (const [k, v] of Object.entries(o)) if (/Reference$/.test(k) && v && typeof v === 'object' && !Array.isArray(v)) (v as Record<string, unknown>).referenceType = k.replace(/Reference$/, '');
      }));
    },
  },
  {
    name: 'client-link-stored', family: 'data.references', suites: ['references'],
    description: 'link objects a client sends inside references are stored and served back',
    response: (res, req, tools) => {
      const links = (tools.state.get('links') as Map<string, Record<string, unknown>> | undefined) ?? new Map<string, Record<string, unknown>>();
      tools.state.set('links', links);
      const location = header(res, 'location');
      if (collection(req) && req.method === 'POST' && location) {
        const sent = Object.entries((jsonOf(req) as Record<string, unknown> | undefined) ?? {}).filter(([k, v]) => /Reference$/.test(k) && (v as { link?: unknown } | null)?.link);
        if (sent.length) links.set(new URL(location).pathname.toLowerCase(), Object.fromEntries(sent.map(([k, v]) => [k, (v as { link: unknown }).link])));
      }
      const stored = item(req) && req.method === 'GET' && res.status === 200 ? links.get(pathOf(req).toLowerCase()) : undefined;
      if (stored) editJson(res, (b) => { for (const [k, link] of Object.entries(stored)) { const ref = (b as Record<string, { link?: unknown }>)[k]; if (ref) ref.link = link; } });
    },
  },
  {
    name: 'reference-key-types-unchecked-beyond-seed-examples', family: 'data.references', suites: ['references'],
    description: 'reference key fields are checked for type and length only in schoolReference, academicWeekReference and balanceSheetDimensionReference: elsewhere text in an integer key, a date key that is no date or a string key over its maximum is taken as some value (the write then fails as an unresolved reference, 409)',
    request: (req) => {
      const path = dataPath(req);
      const resource = path && isWrite(req) ? model.byEndpoint.get(path.resource.toLowerCase()) : undefined;
      if (!resource) return;
      editRequestJson(req, (body) => {
        let changed = false;
        for (const ref of resource.references) {
          if (OLD_TYPE_SHAPES.has(ref.target)) continue;
          for (const o of objectsAt(body, ref.path)) {
            for (const k of ref.fields) {
              const v = o[k.property];
              if ((k.kind === 'int32' || k.kind === 'int64') && typeof v === 'string' && !/^\s*-?\d+(\.\d+)?\s*$/.test(v)) [o[k.property], changed] = [1999, true];
              else if (k.kind === 'date' && typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) [o[k.property], changed] = ['2024-01-01', true];
              else if (k.kind === 'string' && typeof v === 'string') {
                const max = keyMaxLength(model, ref.target, k.targetPath);
                if (max !== undefined && v.length > max) [o[k.property], changed] = [v.slice(0, max), true];
              }
            }
          }
        }
        return changed;
      });
    },
  },
  {
    name: 'reference-key-fields-missing-unresolved-beyond-seed-examples', family: 'data.references', suites: ['references'],
    description: 'a reference missing a key field is looked up with null for it and answered 409 unresolved-reference, not 400 at the missing member\'s path, except in schoolReference, academicWeekReference and balanceSheetDimensionReference',
    request: (req) => {
      const path = dataPath(req);
      const resource = path && isWrite(req) ? model.byEndpoint.get(path.resource.toLowerCase()) : undefined;
      const body = resource ? jsonOf(req) : undefined;
      if (!resource || !body || typeof body !== 'object') return;
      const missing = resource.references.some((ref) => !OLD_TYPE_SHAPES.has(ref.target)
        && objectsAt(body, ref.path).some((o) => Object.keys(o).length > 0 && ref.fields.some((k) => o[k.property] === undefined)));
      if (missing) return problem('data-conflict:unresolved-reference');
    },
  },
  {
    name: 'key-unification-first-place-wins-beyond-seed-examples', family: 'data.references', suites: ['references'],
    description: 'a key given differently in several places is taken from the first place the model lists (the others overwritten, the write accepted), except on courseOffering and sectionAttendanceTakenEvent (the seed\'s examples)',
    request: (req) => {
      const path = dataPath(req);
      const resource = path && isWrite(req) ? model.byEndpoint.get(path.resource.toLowerCase()) : undefined;
      if (!resource || resource.name === 'courseOffering' || resource.name === 'sectionAttendanceTakenEvent') return;
      editRequestJson(req, (body) => {
        let changed = false;
        for (const group of resource.equalities) {
          const places = group.paths.flatMap((p) => {
            const [holder, name] = [p.slice(0, p.lastIndexOf('.')), p.slice(p.lastIndexOf('.') + 1)];
            return (holder === '$' ? [body] : objectsAt(body, holder)).filter((o) => o[name] !== undefined).map((o) => ({ o, name }));
          });
          for (const { o, name } of places.slice(1)) if (o[name] !== places[0].o[places[0].name]) [o[name], changed] = [places[0].o[places[0].name], true];
        }
        return changed;
      });
    },
  },
  {
    name: 'key-unification-reported-at-reference', family: 'data.references', suites: ['references'],
    description: 'a key unification mismatch is reported at the reference objects ($.schoolReference) instead of the key fields that disagree ($.schoolReference.schoolId)',
    response: (res, req) => {
      const p = isData(req) && hasType(res, 'data-validation-failed') ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, string[]> | undefined;
      if (!errors) return;
      const moved: Record<string, string[]> = {};
      for (const [k, messages] of Object.entries(errors)) {
        const at = messages.some((m) => /^All values supplied for/.test(m)) ? k.slice(0, k.lastIndexOf('.')) : k;
        (moved[at] ??= []).push(...messages);
      }
      p!.validationErrors = moved;
      setJson(res, p);
    },
  },
];
