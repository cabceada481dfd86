import type { Fields } from '../../spec/model/dsl.js';

/**
 * Lenient readings of a write body, applied before validation: optional members sent as null
 * are absent (an optional collection sent as null means no items), and booleans accept the
 * spellings upstream clients send (`"true"`, `"False"`, `1`, `0`). Returns a normalised copy.
 */
export function normalizeBody(fields: Fields, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, f] of Object.entries(fields)) {
    if (!(name in out)) continue;
    const v = out[name];
    if (v === null) {
      if (!f.required) delete out[name];
      continue;
    }
    switch (f.kind) {
      case 'boolean':
        if (typeof v === 'string' && /^(true|false)$/i.test(v)) out[name] = v.toLowerCase() === 'true';
        else if (v === 1 || v === 0) out[name] = v === 1;
        break;
      case 'collection':
        if (Array.isArray(v)) out[name] = v.map((item) => normalizeBody(f.item, item));
        break;
      case 'object':
        out[name] = normalizeBody(f.fields, v);
        break;
      default:
    }
  }
  return out;
}
