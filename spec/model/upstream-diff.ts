import type { Field, Fields } from './dsl.js';
import type { CompiledModel, CompiledResource } from './compiled.js';
import { camel, importField, importFields, isAbstract, type UpstreamExtract, type UpstreamProperty } from './upstream.js';

/**
 * Where the compiled model differs from the pinned upstream extract, member by member: names,
 * types, lengths, bounds, digits, required, identity, descriptor and reference targets, the
 * fields a reference holds, collection items. One row per difference, `<resource> <path>: what`;
 * the only rows allowed are the seed overlay's (spec/tests/upstream.test.ts).
 */
export interface DiffRow { at: string; what: string }

const ATTRIBUTES = ['kind', 'maxLength', 'minLength', 'minimum', 'maximum', 'totalDigits', 'fractionDigits', 'required', 'identity', 'descriptor', 'target'] as const;

function compareField(at: string, mine: Field, theirs: Field, rows: DiffRow[]): void {
  for (const a of ATTRIBUTES) {
    const x = (mine as unknown as Record<string, unknown>)[a];
    const y = (theirs as unknown as Record<string, unknown>)[a];
    if ((x ?? false) !== (y ?? false)) rows.push({ at, what: `${a} ${String(x)} (upstream ${String(y)})` });
  }
  if (mine.kind === 'collection' && theirs.kind === 'collection') compareFields(`${at}[*]`, mine.item, theirs.item, rows);
  if (mine.kind === 'object' && theirs.kind === 'object') compareFields(at, mine.fields, theirs.fields, rows);
}

function compareFields(at: string, mine: Fields, theirs: Fields, rows: DiffRow[]): void {
  for (const [name, f] of Object.entries(theirs)) {
    if (!mine[name]) rows.push({ at: `${at}.${name}`, what: 'missing' });
    else compareField(`${at}.${name}`, mine[name], f, rows);
  }
  for (const name of Object.keys(mine)) if (!theirs[name]) rows.push({ at: `${at}.${name}`, what: 'not upstream' });
}

/** The fields each reference holds, and their kinds, against the extract's reference fields. */
function compareReferences(r: CompiledResource, props: Record<string, UpstreamProperty>, rows: DiffRow[]): void {
  const walk = (p: Record<string, UpstreamProperty>, base: string) => {
    for (const [name, u] of Object.entries(p)) {
      const path = `${base}.${name}`;
      if (u.type === 'reference') {
        const ref = r.references.find((x) => x.path === path);
        if (!ref) continue;
        const mine = Object.fromEntries(ref.fields.map((f) => [f.property, f.kind]));
        for (const [fname, fu] of Object.entries(u.fields ?? {})) {
          const kind = importField(fu).kind;
          if (!(fname in mine)) rows.push({ at: `${r.name} ${path}.${fname}`, what: 'reference field missing' });
          else if (mine[fname] !== kind) rows.push({ at: `${r.name} ${path}.${fname}`, what: `kind ${mine[fname]} (upstream ${kind})` });
        }
        for (const fname of Object.keys(mine)) if (!(fname in (u.fields ?? {}))) rows.push({ at: `${r.name} ${path}.${fname}`, what: 'reference field not upstream' });
      } else if (u.type === 'collection') walk(u.item!, `${path}[*]`);
      else if (u.type === 'object') walk(u.properties!, path);
    }
  };
  walk(props, '$');
}

export function diffAgainstUpstream(model: CompiledModel, extract: UpstreamExtract): DiffRow[] {
  const rows: DiffRow[] = [];
  const upstreamNames = new Set<string>();
  for (const [name, u] of Object.entries(extract.resources)) {
    if (isAbstract(extract, name)) continue;
    const r = model.byName.get(camel(name));
    upstreamNames.add(camel(name));
    if (!r) { rows.push({ at: camel(name), what: 'resource missing' }); continue; }
    if (r.endpoint !== u.endpoint) rows.push({ at: r.name, what: `endpoint ${r.endpoint} (upstream ${u.endpoint})` });
    compareFields(`${r.name} $`, r.fields, importFields(u.properties), rows);
    compareReferences(r, u.properties, rows);
  }
  for (const d of extract.descriptors) upstreamNames.add(camel(d.resourceName));
  for (const r of model.resources) if (!upstreamNames.has(r.name)) rows.push({ at: r.name, what: 'resource not upstream' });

  // The shared descriptor shape, compared once on a seed descriptor.
  const sample = model.resources.find((r) => r.isDescriptor)!;
  const mine = Object.fromEntries(Object.entries(sample.fields).map(([n, f]) => [n === `${sample.name}Id` ? '<name>DescriptorId' : n, f]));
  compareFields('descriptors $', mine, importFields(extract.descriptorShape), rows);
  return rows;
}
