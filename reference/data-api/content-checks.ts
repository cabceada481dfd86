import type { Fields } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { expandPaths } from '../store/json-path.js';
import { keyText } from '../store/keys.js';
import type { ValidationErrors } from './validation-errors.js';
import { isBlank } from './visible-text.js';

/**
 * Checks on stored content the schema cannot express: dangerous markup (decisions #10), text
 * that cannot be stored as UTF-8 (decisions #28), control characters, required text with no
 * visible character (visible-text.ts; the schema's pattern sees only white space), the
 * configured school-year range (seed Limits), and duplicate items of a collection (items are
 * identified by their key fields, compared as natural keys are): one error at the collection's
 * path naming the first item that repeats an earlier one, as ODS/API and DMS report it
 * (decisions #46).
 */

/** `<` followed by a letter, `!`, `/` or `?`, or `&#`: the classic cross-site-scripting shapes. */
const DANGEROUS = /<[A-Za-z!/?]|&#/;

/**
 * Text that is not valid UTF-8 once stored: an escaped lone surrogate (`\uD800`) or NUL
 * (decisions #28). isWellFormed is ES2024, newer than the project's TypeScript lib.
 */
const unstorable = (s: string) => !(s as string & { isWellFormed(): boolean }).isWellFormed() || s.includes('\0');

/**
 * Control characters (C0, DEL, C1) other than tab, line feed and carriage return, and NUL
 * (refused as unstorable above): text that shows nothing and means nothing in a record, and
 * breaks what later reads it (issue 23 finding 8).
 */
const CONTROL = /[\x01-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/;

/**
 * Paths (`[*]` for items) of the text that must show something: string members that are
 * required or part of a key, and the string fields of references (the target's key), as the
 * schema gives them its not-blank pattern. Computed once per resource.
 */
const requiredTextCache = new WeakMap<CompiledResource, string[]>();
function requiredText(resource: CompiledResource): string[] {
  let paths = requiredTextCache.get(resource);
  if (!paths) {
    paths = [];
    collectRequiredText(resource.fields, '$', paths);
    for (const r of resource.references) for (const f of r.fields) if (f.kind === 'string') paths.push(`${r.path}.${f.property}`);
    requiredTextCache.set(resource, paths);
  }
  return paths;
}
function collectRequiredText(fields: Fields, base: string, out: string[]): void {
  for (const [name, f] of Object.entries(fields)) {
    if (f.kind === 'string' && (f.identity || (f.required && !f.readOnly))) out.push(`${base}.${name}`);
    else if (f.kind === 'collection') collectRequiredText(f.item, `${base}.${name}[*]`, out);
    else if (f.kind === 'object') collectRequiredText(f.fields, `${base}.${name}`, out);
  }
}

export function contentErrors(resource: CompiledResource, doc: Record<string, unknown>, schoolYears: { min: number; max: number }): ValidationErrors {
  const errors: ValidationErrors = {};
  checkLeaves(doc, '$', [], errors, schoolYears);
  for (const path of requiredText(resource)) {
    for (const at of expandPaths(doc, path)) {
      if (typeof at.value === 'string' && isBlank(at.value)) add(errors, at.path, `${path.slice(path.lastIndexOf('.') + 1)} is required and should not be left empty.`);
    }
  }
  for (const c of resource.collections) {
    if (!c.itemKeys.length) continue;
    for (const at of expandPaths(doc, c.path)) {
      if (!Array.isArray(at.value)) continue;
      const seen = new Set<string>();
      const first = (at.value as Record<string, unknown>[]).findIndex((item) => {
        // Compared as natural keys are: one text in two Unicode spellings is one key.
        const key = stringifyExact(c.itemKeys.map((k) => { const v = item?.[k]; return typeof v === 'string' ? keyText(v) : v; }));
        if (seen.has(key)) return true;
        seen.add(key);
        return false;
      });
      if (first >= 0) add(errors, at.path, `The ${ordinal(first + 1)} item of the ${at.path.split('.').pop()} has the same identifying values as another item earlier in the list.`);
    }
  }
  return errors;
}

/** Text none of the string checks can refuse: printable ASCII but `<` and `&` (one linear pass). */
const PLAIN = /^[\x20-\x25\x27-\x3b\x3d-\x7e]*$/;

/** `schoolYear`, or a member name ending in `SchoolYear` after at least one character. */
const isSchoolYearName = (name: string) => name === 'schoolYear' || (name.length > 10 && name.endsWith('SchoolYear'));

/**
 * Checks every leaf value of a document: `name` is the member holding it (an item's, its list's)
 * and `keys` the members and indexes down to it, made into a JSON path only when a check reports
 * one, since nearly every leaf passes. Plain recursion with the state passed along, no closure
 * made per body: closures made per body cost more than the checks (bench microprofile: 1.8 µs
 * per studentSchoolAssociation).
 */
function checkLeaves(v: unknown, name: string, keys: (string | number)[], errors: ValidationErrors, schoolYears: { min: number; max: number }): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) { keys.push(i); checkLeaves(v[i], name, keys, errors, schoolYears); keys.pop(); }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) { keys.push(k); checkLeaves((v as Record<string, unknown>)[k], k, keys, errors, schoolYears); keys.pop(); }
  } else if (typeof v === 'string') {
    // Most text is printable ASCII without `<` or `&`: none of the three checks can fire.
    if (PLAIN.test(v)) return;
    if (DANGEROUS.test(v)) addAt(errors, keys, `${name} contains a potentially dangerous value.`);
    if (unstorable(v)) addAt(errors, keys, `${name} contains a character that cannot be stored (a lone surrogate or NUL).`);
    if (CONTROL.test(v)) addAt(errors, keys, `${name} contains a control character; only tab, line feed and carriage return are allowed.`);
  } else if ((typeof v === 'number' || typeof v === 'bigint') && isSchoolYearName(name)) {
    const year = Number(v);
    if (year < schoolYears.min || year > schoolYears.max) addAt(errors, keys, `${name} must be between ${schoolYears.min} and ${schoolYears.max}.`);
  }
}

/** Adds a message at the JSON path the keys name. */
const addAt = (errors: ValidationErrors, keys: (string | number)[], message: string) => add(errors, keys.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p}.${k}`), '$'), message);

const add = (errors: ValidationErrors, path: string, message: string) => (errors[path] ??= []).push(message);

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
}
