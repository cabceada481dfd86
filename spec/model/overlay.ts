import { K, N, R, coll, desc, descItem, ext, refItem, str, type Field, type Fields, type ResourceDef } from './dsl.js';

/**
 * What the seed (000_7f8fb752a8086bf3.txt) states differently from the
 * upstream data standard. The seed is the law, so these win; each entry quotes the seed line it
 * follows. The seed's tables are 4.0's (decision 44): laid over 4.0 (what a 4.0 deployment
 * serves), all but three rows are 4.0's own facts; `differs` names every place where the rows
 * make a model differ from the 5.2 extract, where each row is a difference
 * (spec/tests/seed-vs-4.0.test.ts holds both).
 */
export interface OverlayEntry {
  resource: string;
  /** A top-level member; absent when the entry adds a whole resource. */
  member?: string;
  seed: string;
  /** Attributes laid over the upstream member. */
  set?: Partial<Field>;
  /** A member upstream does not have. */
  add?: Field;
  /** A resource upstream does not have. */
  addResource?: ResourceDef;
  /** `<resource> <path>` rows of the model-vs-upstream comparison this entry accounts for. */
  differs: string[];
}

const learningObjective: ResourceDef = {
  name: 'learningObjective',
  plural: 'learningObjectives',
  description: 'A learning objective (data standard 4.0; removed upstream in 5.0, kept because the seed\'s course references it).',
  fields: {
    learningObjectiveId: str(60, K),
    namespace: str(255, K),
    objective: str(60, R),
    academicSubjects: coll(descItem('academicSubject'), R),
    description: str(1024, N),
    gradeLevels: coll(descItem('gradeLevel')),
    learningStandards: coll(refItem('learningStandard')),
    nomenclature: str(100, N),
    successCriteria: str(150, N),
  },
};

export const overlay: readonly OverlayEntry[] = [
  {
    resource: 'courseTranscript', member: 'earnedCredits',
    seed: 'courseTranscript: Keys and required: … earnedCredits double R.',
    set: { required: true, nullable: false },
    differs: ['courseTranscript $.earnedCredits'],
  },
  {
    resource: 'courseTranscript', member: 'alternativeCourseCode',
    seed: 'courseTranscript: alternativeCourseCode string<=60 N (deprecated); "deprecated in favour of alternativeCourseIdentificationCodes".',
    add: str(60, { nullable: true, deprecated: 'Use alternativeCourseIdentificationCodes instead.' }),
    differs: ['courseTranscript $.alternativeCourseCode'],
  },
  {
    resource: 'communityOrganization', member: 'communityOrganizationId',
    seed: 'communityOrganization: communityOrganizationId int32 K R; Reference shapes: communityOrganizationReference communityOrganizationId (int32) R.',
    set: { kind: 'int32' },
    differs: ['communityOrganization $.communityOrganizationId', 'communityProvider $.communityOrganizationReference.communityOrganizationId'],
  },
  {
    resource: 'communityProvider', member: 'communityProviderId',
    seed: 'communityProvider: communityProviderId int32 K R.',
    set: { kind: 'int32' },
    differs: ['communityProvider $.communityProviderId', 'communityProviderLicense $.communityProviderReference.communityProviderId'],
  },
  {
    resource: 'cohort', member: 'cohortIdentifier',
    seed: 'cohort: cohortIdentifier string<=20 K R; Reference shapes: cohortReference cohortIdentifier (string<=20).',
    set: { maxLength: 20 },
    differs: ['cohort $.cohortIdentifier'],
  },
  {
    resource: 'communityProviderLicense', member: 'licenseIdentifier',
    seed: 'communityProviderLicense: licenseIdentifier string<=20 K R.',
    set: { maxLength: 20 },
    differs: ['communityProviderLicense $.licenseIdentifier'],
  },
  {
    resource: 'course', member: 'academicSubjectDescriptor',
    seed: 'course: optional: academicSubjectDescriptor, … (all N).',
    add: desc('academicSubject', N),
    differs: ['course $.academicSubjectDescriptor'],
  },
  {
    resource: 'course', member: 'learningObjectives',
    seed: 'course: arrays … learningObjectives {learningObjectiveReference}.',
    add: coll(refItem('learningObjective')),
    differs: ['course $.learningObjectives'],
  },
  {
    resource: 'learningObjective',
    seed: 'course: arrays … learningObjectives {learningObjectiveReference} (the resource they name, not shown by the seed, follows data standard 4.0).',
    addResource: learningObjective,
    differs: ['learningObjective'],
  },
  {
    resource: 'credential', member: '_ext',
    seed: '`_ext`: object keyed by extension name, holding extension fields. Present on some resources (for example credential).',
    add: ext(),
    differs: ['credential $._ext'],
  },
  {
    resource: 'descriptors', member: '<name>DescriptorId',
    seed: 'Descriptor resources (shared shape): <name>DescriptorId int32 K, server assigned.',
    differs: ['descriptors $.<name>DescriptorId'],
  },
  {
    resource: 'descriptors', member: 'priorDescriptorId',
    seed: 'Descriptor resources (shared shape): priorDescriptorId int32 N.',
    differs: ['descriptors $.priorDescriptorId'],
  },
];

/**
 * Lays the overlay over the imported definitions (descriptor-shape rows are compile.ts's). A row
 * the standard already has is laid over it all the same (a member keeps the row's attributes,
 * such as its deprecation), except a whole resource: the standard's own stands, since the seed
 * shows only that it exists (LearningObjective in DS 4.0).
 */
export function applyOverlay(defs: ResourceDef[], entries: readonly OverlayEntry[] = overlay): ResourceDef[] {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const out = [...defs];
  for (const e of entries) {
    if (e.addResource) {
      if (!byName.has(e.resource)) out.push(e.addResource);
      continue;
    }
    if (e.resource === 'descriptors') continue;
    const def = byName.get(e.resource);
    if (!def) throw new Error(`overlay: no upstream resource ${e.resource}`);
    const current = def.fields[e.member!];
    if (e.add) {
      def.fields[e.member!] = current ? { ...current, ...e.add } as Field : e.add;
    } else if (e.set) {
      if (!current) throw new Error(`overlay: no upstream member ${e.resource}.${e.member}`);
      def.fields[e.member!] = { ...current, ...e.set } as Field;
    }
  }
  return out;
}

/** Whether a standard already has an overlay row: `held` (as the seed states it), `differs`, `absent`. */
export type OverlayHold = 'held' | 'differs' | 'absent';

/**
 * The attributes a row is compared on (the shape: what a body may hold). A minimum length counts
 * only where the row states one: the seed's lengths are maxima ("Lengths are maximum string
 * lengths"), so a row without a minimum is silent about it, not a statement that there is none.
 */
const SHAPE = ['kind', 'maxLength', 'minimum', 'maximum', 'totalDigits', 'fractionDigits', 'required', 'nullable', 'identity', 'descriptor', 'target'] as const;

/** `upstream` has the shape `row` states. */
function sameShape(upstream: Field, row: Field): boolean {
  const attr = (f: Field, k: string) => (f as unknown as Record<string, unknown>)[k] ?? false;
  if (SHAPE.some((k) => attr(upstream, k) !== attr(row, k))) return false;
  if ('minLength' in row && attr(upstream, 'minLength') !== attr(row, 'minLength')) return false;
  if (upstream.kind === 'collection' && row.kind === 'collection') return sameFields(upstream.item, row.item);
  if (upstream.kind === 'object' && row.kind === 'object') return sameFields(upstream.fields, row.fields);
  return true;
}

function sameFields(upstream: Fields, row: Fields): boolean {
  const names = Object.keys(row);
  return names.length === Object.keys(upstream).length && names.every((n) => upstream[n] && sameShape(upstream[n], row[n]));
}

/**
 * How a standard's imported definitions (before the overlay) stand to each row; `descriptorShape`
 * is the standard's shared descriptor members. A whole resource is held when the standard has it
 * with every member the row writes, in the same shape (it may have more: the seed shows only that
 * the resource exists).
 */
export function overlayHold(defs: readonly ResourceDef[], descriptorShape: Fields, e: OverlayEntry): OverlayHold {
  if (e.addResource) {
    const def = defs.find((d) => d.name === e.resource);
    if (!def) return 'absent';
    return Object.entries(e.addResource.fields).every(([n, f]) => def.fields[n] && sameShape(def.fields[n], f)) ? 'held' : 'differs';
  }
  const fields = e.resource === 'descriptors' ? descriptorShape : defs.find((d) => d.name === e.resource)?.fields;
  const current = fields?.[e.member!];
  if (!current) return 'absent';
  if (e.add) return sameShape(current, e.add) ? 'held' : 'differs';
  if (e.set) return sameShape(current, { ...current, ...e.set } as Field) ? 'held' : 'differs';
  return 'held';
}
