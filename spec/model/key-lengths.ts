import { definitions, model } from './index.js';

/**
 * The maximum length of a string key member of `target` at `path` (`$.member` or
 * `$.someReference.member`), followed through the references it is taken from: what a reference
 * to `target` may hold in that key. Undefined where the key is not a string or has no maximum.
 * Used by the references suites (one character over it is refused) and the strength faults that
 * break that check.
 */
export function keyMaxLength(target: string, path: string): number | undefined {
  const resource = model.byName.get(target);
  const fields = resource?.fields ?? definitions.abstracts.find((a) => a.name === target)?.fields;
  const [, first, ...rest] = path.split('.');
  const f = fields?.[first];
  if (f?.kind === 'string') return f.maxLength;
  if (f?.kind === 'reference' && resource && rest.length) {
    const m = resource.references.find((x) => x.path === `$.${first}`)?.fields.find((x) => x.property === rest[0]);
    return m ? keyMaxLength(f.target, m.targetPath) : undefined;
  }
  return undefined;
}
