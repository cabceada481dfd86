import type { Field, Fields } from '../../spec/model/dsl.js';
import type { CompiledModel, CompiledReference, CompiledResource } from '../../spec/model/compiled.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import { getPath } from '../store/json-path.js';
import type { DataStore, StoredRecord } from '../store/store.js';

/**
 * Valid documents for any resource of the model, built from what the model says (required
 * members, references to records that exist, descriptor values that exist, unified keys that
 * agree). The demo data set uses it so that every resource has records without per-resource code.
 */
export class Synthesizer {
  private counter = 0;

  constructor(private readonly model: CompiledModel, private readonly store: DataStore, private readonly namespace = 'uri://core.org') {}

  /** Resources in an order where every reference target comes before its referrers. */
  creationOrder(): CompiledResource[] {
    const order: CompiledResource[] = [];
    const seen = new Set<string>();
    const visit = (r: CompiledResource, path: Set<string>) => {
      if (seen.has(r.name) || path.has(r.name)) return;
      path.add(r.name);
      for (const ref of r.references) {
        if (!ref.required && !ref.identity) continue;
        for (const t of this.targetsOf(ref.target)) visit(t, path);
      }
      path.delete(r.name);
      seen.add(r.name);
      order.push(r);
    };
    const all = [...this.model.resources].sort((a, b) => Number(b.isDescriptor) - Number(a.isDescriptor) || a.name.localeCompare(b.name));
    for (const r of all) visit(r, new Set());
    return order;
  }

  /** A document for the resource, or undefined when a required reference has no target yet. */
  document(resource: CompiledResource, n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> | undefined {
    const doc: Record<string, unknown> = {};
    const chosen = new Map<string, unknown>();
    for (const [name, f] of Object.entries(resource.fields)) {
      if (name in overrides) { doc[name] = overrides[name]; continue; }
      if (f.kind === 'reference') {
        const ref = resource.references.find((r) => r.path === `$.${name}`)!;
        if (!f.required && !f.identity) continue;
        const value = this.referenceValue(ref, n, chosen);
        if (!value) return undefined;
        doc[name] = value;
        continue;
      }
      if (!f.required && !f.identity) continue;
      const v = this.value(resource, `$.${name}`, name, f, n, chosen);
      if (v === undefined) return undefined;
      doc[name] = v;
    }
    return doc;
  }

  /** The value of a reference: an existing target record agreeing with keys chosen so far. */
  private referenceValue(ref: CompiledReference, n: number, chosen: Map<string, unknown>): Record<string, unknown> | undefined {
    const candidates: Record<string, unknown>[] = [];
    for (const t of this.targetsOf(ref.target)) {
      for (const rec of this.store.collection(t.name).byId.values()) candidates.push(this.referenceOf(ref, t, rec));
    }
    const fitting = candidates.filter((c) => ref.fields.every((m) => !chosen.has(m.queryName) || chosen.get(m.queryName) === c[m.property]));
    if (!fitting.length) return undefined;
    const pick = fitting[n % fitting.length];
    for (const m of ref.fields) chosen.set(m.queryName, pick[m.property]);
    return pick;
  }

  private referenceOf(ref: CompiledReference, target: CompiledResource, rec: StoredRecord): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of ref.fields) {
      const path = target.educationOrganization && m.targetPath === '$.educationOrganizationId' ? `$.${target.educationOrganization.idField}` : m.targetPath;
      out[m.property] = getPath(rec.doc, path);
    }
    return out;
  }

  private targetsOf(name: string): CompiledResource[] {
    const abstract = this.model.abstracts.find((a) => a.name === name);
    return abstract ? abstract.members.map((m) => this.model.byName.get(m.resource)!) : [this.model.byName.get(name)!];
  }

  private value(resource: CompiledResource, path: string, name: string, f: Field, n: number, chosen: Map<string, unknown>): unknown {
    const i = ++this.counter;
    switch (f.kind) {
      case 'string': {
        if (name === 'namespace') return this.namespace;
        const text = `${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} ${n + 1}`;
        return text.slice(0, f.maxLength ?? 60).trim();
      }
      case 'int32': return within(f, /year$/i.test(name) ? 2025 : /Id$/.test(name) ? 1000 + i : 1 + (n % 5));
      case 'int64': return within(f, 900_000_000 + i);
      case 'double': return within(f, 1 + (n % 4) / 2);
      case 'boolean': return n % 2 === 0;
      case 'date': return dateFor(name, n);
      case 'date-time': return `2025-01-1${n % 10}T08:00:00Z`;
      case 'time': return `0${8 + (n % 2)}:00:00`;
      case 'descriptor': return this.descriptorValue(f.descriptor, n);
      case 'collection': {
        const item = this.item(resource, `${path}[*]`, f.item, n, chosen);
        return item ? [item] : undefined;
      }
      case 'object': return this.item(resource, path, f.fields, n, chosen);
      default: return undefined;
    }
  }

  private item(resource: CompiledResource, path: string, fields: Fields, n: number, chosen: Map<string, unknown>): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(fields)) {
      if (!f.required && !f.identity) continue;
      if (f.kind === 'reference') {
        const ref = resource.references.find((r) => r.path === `${path}.${name}`);
        // Item references agree with the parent's keys (a child shares its parent's identity).
        const v = ref && this.referenceValue(ref, n, new Map(chosen));
        if (!v) return undefined;
        out[name] = v;
        continue;
      }
      const v = this.value(resource, `${path}.${name}`, name, f, n, chosen);
      if (v === undefined) return undefined;
      out[name] = v;
    }
    return out;
  }

  private descriptorValue(descriptor: string, n: number): string | undefined {
    const c = this.store.collection(`${descriptor}Descriptor`);
    const all = [...c.byId.values()];
    if (!all.length) return undefined;
    const d = all[n % all.length].doc;
    return `${d.namespace as string}#${d.codeValue as string}`;
  }
}

/** A value inside the member's bounds (the data standard's inclusive ranges and precision). */
function within(f: Field, v: number): number {
  const { minimum, maximum } = f.kind === 'int32' || f.kind === 'int64' || f.kind === 'double' ? numericBounds(f) : {};
  return Math.min(Math.max(v, minimum ?? v), maximum ?? v);
}

/**
 * Dates a person would believe: people born 2008-2019, things that begin at the start of the
 * 2024-2025 school year and end at its close, anything else during it.
 */
function dateFor(name: string, n: number): string {
  const day = (d: number) => String(1 + (d % 28)).padStart(2, '0');
  const month = (m: number) => String(1 + (m % 12)).padStart(2, '0');
  if (/birth/i.test(name)) return `${2008 + ((n * 7) % 12)}-${month(n * 5)}-${day(n * 11)}`;
  if (/(end|exit|withdraw|expiration|completion)/i.test(name)) return `2025-05-${String(20 + (n % 10)).padStart(2, '0')}`;
  if (/(begin|start|entry|effective|issu|hire|adopted)/i.test(name)) return `2024-08-${String(19 + (n % 10)).padStart(2, '0')}`;
  return `2024-${['09', '10', '11'][n % 3]}-${day(n * 3)}`;
}
