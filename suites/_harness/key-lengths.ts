import { model } from './judged-model.js';

/**
 * The maximum length of a string key member of `target` at `path` (`$.member` or
 * `$.someReference.member`) in the judged standard, followed through the references it is taken
 * from: what a reference to `target` may hold in that key (lengths differ between standards:
 * 6.1 widens assessmentIdentifier, sessionName, courseCode … from 60 to 120). Undefined where the
 * key is not a string or has no maximum. An abstract target (educationOrganization,
 * generalStudentProgramAssociation) has no fields of its own: its concrete members' field that
 * plays a direct key member tells, the shortest if they differ.
 */
export function keyMaxLength(target: string, path: string): number | undefined {
  const [, first, ...rest] = path.split('.');
  const resource = model.byName.get(target);
  if (!resource) {
    // Through an abstract target's reference (generalStudentProgramAssociation's programName),
    // no length is judged: the reference gives 409 there, not 400 (reported, issue #22 point 3).
    if (rest.length) return undefined;
    const abstract = model.abstracts.find((a) => a.name === target);
    const lengths = (abstract?.members ?? [])
      .map((m) => keyMaxLength(m.resource, `$.${m.fieldFor[first] ?? first}${rest.length ? `.${rest.join('.')}` : ''}`))
      .filter((n): n is number => n !== undefined);
    return lengths.length ? Math.min(...lengths) : undefined;
  }
  const f = resource.fields[first];
  if (f?.kind === 'string') return f.maxLength;
  if (f?.kind === 'reference' && rest.length) {
    const m = resource.references.find((x) => x.path === `$.${first}`)?.fields.find((x) => x.property === rest[0]);
    return m ? keyMaxLength(f.target, m.targetPath) : undefined;
  }
  return undefined;
}
