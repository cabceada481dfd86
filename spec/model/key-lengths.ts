import type { CompiledModel } from './compiled.js';

/**
 * The maximum length of a string key member of `target` at `path` (`$.member` or
 * `$.someReference.member`) in `model`, followed through the references it is taken from: what a
 * reference to `target` may hold in that key (lengths differ between standards: 6.1 widens
 * assessmentIdentifier, sessionName, courseCode … from 60 to 120). Undefined where the key is not
 * a string or has no maximum. An abstract target (educationOrganization,
 * generalStudentProgramAssociation) has no resource of its own: its concrete members' field that
 * plays the key member tells, the shortest if they differ.
 *
 * One function for everything that needs it: the generated reference schemas (so the reference
 * refuses an over-long key with 400 before looking the reference up), the suites (one character
 * over it is refused) and the strength faults that break that check.
 */
export function keyMaxLength(model: CompiledModel, target: string, path: string): number | undefined {
  const [, first, ...rest] = path.split('.');
  const resource = model.byName.get(target);
  if (!resource) {
    const abstract = model.abstracts.find((a) => a.name === target);
    const lengths = (abstract?.members ?? [])
      .map((m) => keyMaxLength(model, m.resource, `$.${m.fieldFor[first] ?? first}${rest.length ? `.${rest.join('.')}` : ''}`))
      .filter((n): n is number => n !== undefined);
    return lengths.length ? Math.min(...lengths) : undefined;
  }
  const f = resource.fields[first];
  if (f?.kind === 'string') return f.maxLength;
  if (f?.kind === 'reference' && rest.length) {
    const m = resource.references.find((x) => x.path === `$.${first}`)?.fields.find((x) => x.property === rest[0]);
    return m ? keyMaxLength(model, f.target, m.targetPath) : undefined;
  }
  return undefined;
}
