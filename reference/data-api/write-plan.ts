import type { Field, Fields, ScalarField } from '../../spec/model/dsl.js';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { descriptorRecord, descriptorResource, type RecordLookup, type ResolvedTargets } from '../store/references.js';
import { blankMessage, checkLeaves, checkSchoolYear, checkText, firstRepeat, isSchoolYearName, outsideSchoolYears, PLAIN, repeatMessage, requiredTextPaths, type Report } from './content-checks.js';
import { referenceProperties } from './documents.js';
import { canonicalSpelling, missingDescriptorMessage, unificationErrors, type ReferenceSites } from './integrity.js';
import type { ValidationErrors } from './validation-errors.js';
import { isBlank } from './visible-text.js';

/**
 * The write plan of a resource (issue 25): what a write body becomes, and what it breaks, in one
 * pass over it, generated from the model as ajv generates validators. In one walk it
 *  - keeps only the model's members (unknown extras and nulls dropped, decisions #16; read-only
 *    members such as descriptor ids dropped; a reference keeps only its target's key members;
 *    a value of the wrong shape is skipped, as the schema already refused it);
 *  - resolves each descriptor value to its stored spelling (400 when none is stored);
 *  - checks every text and school year it keeps (content-checks.ts), required text for a visible
 *    character, and each keyed collection for a repeated item;
 *  - sees whether the values of each key unification agree (seed: key unification);
 *  - lists the reference objects it kept, which checkReferences then resolves without a walk.
 * It replaced four walks (prune, resolveDescriptors, contentErrors, checkUnification), each over
 * the whole document and each locating values by path (write-checks.oracle.ts keeps them, and
 * write-plan.test.ts holds the plan to them on generated bodies for every resource of every
 * standard). A failure is rare: the generated code only records it, with its concrete path
 * built then; `refusals` orders the records as the four walks reported them, so the answer
 * lists the same paths in the same order.
 */
export type WritePlan = (body: Record<string, unknown>, store: RecordLookup, resolved: ResolvedTargets, schoolYears: SchoolYears, found: Found, sites: ReferenceSites) => Record<string, unknown>;
type SchoolYears = { min: number; max: number };

/**
 * What a plan found wrong: flat records of (check, index, path, message). The check is one of
 * CHECK; the index orders records of one check as its walk met them (the descriptor's, required
 * text path's, collection's or equality's place in the compiled resource).
 */
export type Found = (number | string)[];
const CHECK = { descriptor: 0, leaf: 1, blank: 2, repeat: 3, unification: 4 } as const;

/** The refusals found, as the three groups write-body.ts reports in turn: descriptors, content, unification. */
export function refusals(found: Found): [ValidationErrors, ValidationErrors, ValidationErrors] {
  const records: { check: number; index: number; path: string; message: string }[] = [];
  for (let i = 0; i < found.length; i += 4) records.push({ check: found[i] as number, index: found[i + 1] as number, path: found[i + 2] as string, message: found[i + 3] as string });
  // Stable: records of one check and index stay in the order they were met.
  records.sort((a, b) => a.check - b.check || a.index - b.index);
  const groups: [ValidationErrors, ValidationErrors, ValidationErrors] = [{}, {}, {}];
  for (const r of records) {
    const group = groups[r.check === CHECK.descriptor ? 0 : r.check === CHECK.unification ? 2 : 1];
    (group[r.path] ??= []).push(r.message);
  }
  return groups;
}

/**
 * A write body checked by its resource's plan: the document to store, and the refusals found
 * (descriptors, content, unification), if any. The descriptors it resolves are added to `resolved`.
 */
export function checkWrite(model: CompiledModel, store: RecordLookup, resource: CompiledResource, body: Record<string, unknown>, schoolYears: SchoolYears, resolved: ResolvedTargets): Checked {
  const found: Found = [];
  const references: ReferenceSites = [];
  const doc = writePlan(model, resource)(body, store, resolved, schoolYears, found, references);
  return found.length ? { doc, references, refused: refusals(found) } : { doc, references };
}

/** The document to store, its references as kept (for checkReferences), and the refusals found. */
export interface Checked { doc: Record<string, unknown>; references: ReferenceSites; refused?: [ValidationErrors, ValidationErrors, ValidationErrors] }

/** The plan of a resource, generated on its first write (a resource belongs to one model). */
const plans = new WeakMap<CompiledResource, WritePlan>();
export function writePlan(model: CompiledModel, resource: CompiledResource): WritePlan {
  let plan = plans.get(resource);
  if (!plan) plans.set(resource, (plan = generate(model, resource)));
  return plan;
}

/** What the generated code calls: the checks themselves stay plain, tested functions. */
const RUNTIME = {
  PLAIN,
  isBlank,
  descriptor: descriptorRecord,
  spelling: canonicalSpelling,
  missing: missingDescriptorMessage,
  outsideSchoolYears,
  reporter: (found: Found, check: number, index: number): Report => (path, message) => { found.push(check, index, path, message); },
  text: (found: Found, text: string, name: string, path: string) => checkText(text, name, path, RUNTIME.reporter(found, CHECK.leaf, 0)),
  leaves: (found: Found, v: unknown, name: string, path: string, years: SchoolYears) => checkLeaves(v, name, path, years, RUNTIME.reporter(found, CHECK.leaf, 0)),
  year: (found: Found, v: number | bigint, name: string, path: string, years: SchoolYears) => checkSchoolYear(v, name, path, years, RUNTIME.reporter(found, CHECK.leaf, 0)),
  repeat: firstRepeat,
  repeatMessage,
  unify: (found: Found, resource: CompiledResource, index: number, doc: Record<string, unknown>) => unificationErrors(resource.equalities[index], doc, RUNTIME.reporter(found, CHECK.unification, index)),
};

/** Where each check applies: model paths (`[*]` for items) → the check's indexes there. */
interface Roles {
  descriptors: Map<string, number[]>;
  blank: Map<string, number[]>;
  repeats: Map<string, number[]>;
  equalities: Map<string, number[]>;
  references: Map<string, number[]>;
  /** Paths the walk reached: a path no member reaches would be a check silently dropped. */
  reached: Set<string>;
}

function rolesOf(resource: CompiledResource): Roles {
  const index = (paths: string[]) => {
    const m = new Map<string, number[]>();
    paths.forEach((p, i) => { if (p) (m.get(p) ?? m.set(p, []).get(p)!).push(i); });
    return m;
  };
  const equalities = new Map<string, number[]>();
  resource.equalities.forEach((eq, i) => { for (const p of eq.paths) (equalities.get(p) ?? equalities.set(p, []).get(p)!).push(i); });
  return {
    descriptors: index(resource.descriptors.map((d) => d.path)),
    blank: index(requiredTextPaths(resource)),
    repeats: index(resource.collections.map((c) => (c.itemKeys.length ? c.path : ''))),
    equalities,
    references: index(resource.references.map((r) => r.path)),
    reached: new Set(),
  };
}

/** A concrete path as a JavaScript expression: literal text, and item indexes held in variables. */
type PathParts = ({ text: string } | { index: string })[];
function pathExpression(parts: PathParts): string {
  const out: string[] = [];
  let text = '';
  for (const p of parts) {
    if ('text' in p) text += p.text;
    else { out.push(JSON.stringify(text), p.index); text = ''; }
  }
  // Every path ends in a member's name: text.
  out.push(JSON.stringify(text));
  return out.join(' + ');
}

/** Generates a resource's plan. Model names enter the code only as JSON string literals (the resource's, in the closing comment, only as word characters). */
function generate(model: CompiledModel, resource: CompiledResource): WritePlan {
  const roles = rolesOf(resource);
  const constants: unknown[] = [];
  const constant = (v: unknown) => `K[${constants.push(v) - 1}]`;
  const lines: string[] = [];
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${counter++}`;
  const lit = (s: string) => JSON.stringify(s);
  const take = (m: Map<string, number[]>, path: string) => { roles.reached.add(path); return m.get(path) ?? []; };

  /** The checks of one kept value `w` at model path `at`, held by the member `name`. */
  const position = (w: string, at: string, name: string, path: PathParts) => {
    const where = pathExpression(path);
    for (const d of take(roles.descriptors, at)) {
      const { descriptor } = resource.descriptors[d];
      lines.push(`if (typeof ${w} === 'string') { const r = rt.descriptor(store, ${constant(descriptorResource(model, descriptor))}, ${w});`,
        `if (r !== undefined) { ${w} = rt.spelling(r); resolved.add(r); } else found.push(${CHECK.descriptor}, ${d}, ${where}, rt.missing(${lit(descriptor)}, ${w})); }`);
    }
    lines.push(`if (typeof ${w} === 'string') { if (!rt.PLAIN.test(${w})) rt.text(found, ${w}, ${lit(name)}, ${where}); }`,
      `else if (typeof ${w} === 'object') rt.leaves(found, ${w}, ${lit(name)}, ${where}, years);`);
    if (isSchoolYearName(name)) lines.push(`else if ((typeof ${w} === 'number' || typeof ${w} === 'bigint') && rt.outsideSchoolYears(${w}, years)) rt.year(found, ${w}, ${lit(name)}, ${where}, years);`);
    for (const r of take(roles.blank, at)) lines.push(`if (typeof ${w} === 'string' && rt.isBlank(${w})) found.push(${CHECK.blank}, ${r}, ${where}, ${lit(blankMessage(at))});`);
    for (const e of take(roles.equalities, at)) lines.push(`if (q${e} === undefined) q${e} = ${w}; else if (q${e} !== ${w}) x${e} = true;`);
  };

  /** The kept members of `fields` read from `src` into `out`, at model path `at`. */
  const members = (fields: Fields, src: string, out: string, at: string, path: PathParts) => {
    for (const [name, f] of Object.entries(fields) as [string, Field][]) {
      const here = `${at}.${name}`;
      const herePath: PathParts = [...path, { text: `.${name}` }];
      if ((f as ScalarField).readOnly) {
        // Never kept, so never checked: the old walks found nothing here either.
        roles.reached.add(here);
        continue;
      }
      const v = fresh('v');
      lines.push(`let ${v} = ${src}[${lit(name)}];`, `if (${v} !== null && ${v} !== undefined) {`);
      switch (f.kind) {
        case 'reference': {
          const o = fresh('o');
          lines.push(`if (typeof ${v} === 'object' && !Array.isArray(${v})) {`, `const ${o} = {};`);
          for (const p of referenceProperties(model, f.target)) {
            const w = fresh('w');
            lines.push(`let ${w} = ${v}[${lit(p)}];`, `if (${w} !== undefined && ${w} !== null) {`);
            position(w, `${here}.${p}`, p, [...herePath, { text: `.${p}` }]);
            lines.push(`${o}[${lit(p)}] = ${w};`, '}');
          }
          for (const r of take(roles.references, here)) lines.push(`sites.push(${r}, ${o});`);
          lines.push(`${out}[${lit(name)}] = ${o};`, '}');
          break;
        }
        case 'collection': {
          const [a, i, t, o] = [fresh('a'), fresh('i'), fresh('t'), fresh('o')];
          // Sized once: a list grown by push keeps room for 16 more items in every stored document.
          lines.push(`if (Array.isArray(${v})) {`, `const ${a} = new Array(${v}.length);`, `for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `const ${t} = ${v}[${i}];`,
            `if (${t} && typeof ${t} === 'object' && !Array.isArray(${t})) {`, `const ${o} = {};`);
          members(f.item, t, o, `${here}[*]`, [...herePath, { text: '[' }, { index: i }, { text: ']' }]);
          lines.push(`${a}[${i}] = ${o};`, `} else ${a}[${i}] = {};`, '}');
          for (const c of take(roles.repeats, here)) {
            lines.push(`{ const k = rt.repeat(${a}, ${constant(resource.collections[c].itemKeys)}); if (k >= 0) found.push(${CHECK.repeat}, ${c}, ${pathExpression(herePath)}, rt.repeatMessage(k, ${lit(name)})); }`);
          }
          lines.push(`${out}[${lit(name)}] = ${a};`, '}');
          break;
        }
        case 'object': {
          const o = fresh('o');
          roles.reached.add(here);
          lines.push(`if (typeof ${v} === 'object' && !Array.isArray(${v})) {`, `const ${o} = {};`);
          members(f.fields, v, o, here, herePath);
          lines.push(`${out}[${lit(name)}] = ${o};`, '}');
          break;
        }
        default:
          position(v, here, name, herePath);
          lines.push(`${out}[${lit(name)}] = ${v};`);
      }
      lines.push('}');
    }
  };

  members(resource.fields, 'body', 'doc', '$', [{ text: '$' }]);
  const missed = [roles.descriptors, roles.blank, roles.repeats, roles.equalities, roles.references].flatMap((m) => [...m.keys()]).filter((p) => !roles.reached.has(p));
  if (missed.length) throw new Error(`write plan of ${resource.name}: no member reaches ${missed.join(', ')}`);
  const equalities = resource.equalities.map((_, e) => e);
  const source = [
    'return function plan(body, store, resolved, years, found, sites) {',
    'const doc = {};',
    ...equalities.map((e) => `let q${e}, x${e} = false;`),
    ...lines,
    ...equalities.map((e) => `if (x${e}) rt.unify(found, resource, ${e}, doc);`),
    'return doc;',
    '};',
    // Named in stack traces and profiles (bench/stages.ts counts it as the write checks).
    `//# sourceURL=write-plan/${resource.name.replace(/[^\w-]/g, '_')}.js`,
  ].join('\n');
  return new Function('rt', 'K', 'resource', source)(RUNTIME, constants, resource) as WritePlan;
}
