import type { Fields } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { keyText } from '../store/keys.js';

/**
 * Checks on stored content the schema cannot express: dangerous markup (decisions #10), text
 * that cannot be stored as UTF-8 (decisions #28), control characters, required text with no
 * visible character (visible-text.ts; the schema's pattern sees only white space), the
 * configured school-year range (seed Limits), and duplicate items of a collection (items are
 * identified by their key fields, compared as natural keys are): one error at the collection's
 * path naming the first item that repeats an earlier one, as ODS/API and DMS report it
 * (decisions #46). The write plan (write-plan.ts) applies them where the model places them, as
 * it walks a body once.
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
 * The paths (`[*]` for items) of the text that must show something: string members that are
 * required or part of a key, and the string fields of references (the target's key), as the
 * schema gives them its not-blank pattern. In the order the checks report them.
 */
export function requiredTextPaths(resource: CompiledResource): string[] {
  const paths: string[] = [];
  collectRequiredText(resource.fields, '$', paths);
  for (const r of resource.references) for (const f of r.fields) if (f.kind === 'string') paths.push(`${r.path}.${f.property}`);
  return paths;
}
function collectRequiredText(fields: Fields, base: string, out: string[]): void {
  for (const [name, f] of Object.entries(fields)) {
    if (f.kind === 'string' && (f.identity || (f.required && !f.readOnly))) out.push(`${base}.${name}`);
    else if (f.kind === 'collection') collectRequiredText(f.item, `${base}.${name}[*]`, out);
    else if (f.kind === 'object') collectRequiredText(f.fields, `${base}.${name}`, out);
  }
}

/** The refusal of blank required text at `path` (a model path: its last member names the text). */
export const blankMessage = (path: string) => `${path.slice(path.lastIndexOf('.') + 1)} is required and should not be left empty.`;

/**
 * The index of the first item of a collection that repeats an earlier one, or -1. Items are
 * compared by their key members as natural keys are: one text in two Unicode spellings is one key.
 */
export function firstRepeat(items: Record<string, unknown>[], itemKeys: string[]): number {
  const seen = new Set<string>();
  return items.findIndex((item) => {
    const key = stringifyExact(itemKeys.map((k) => { const v = item?.[k]; return typeof v === 'string' ? keyText(v) : v; }));
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

/** The refusal of a collection (named `name`) whose item at `index` repeats an earlier one. */
export const repeatMessage = (index: number, name: string) => `The ${ordinal(index + 1)} item of the ${name} has the same identifying values as another item earlier in the list.`;

/** Text none of the string checks can refuse: printable ASCII but `<` and `&` (one linear pass). */
export const PLAIN = /^[\x20-\x25\x27-\x3b\x3d-\x7e]*$/;

/** `schoolYear`, or a member name ending in `SchoolYear` after at least one character. */
export const isSchoolYearName = (name: string) => name === 'schoolYear' || (name.length > 10 && name.endsWith('SchoolYear'));

/** Where the checks report a failure: the JSON path and the message. */
export type Report = (path: string, message: string) => void;

/**
 * The refusals of one text value held by the member `name`: dangerous markup, a character that
 * cannot be stored, a control character. Called only for text PLAIN does not pass.
 */
export function checkText(text: string, name: string, path: string, report: Report): void {
  if (DANGEROUS.test(text)) report(path, `${name} contains a potentially dangerous value.`);
  if (unstorable(text)) report(path, `${name} contains a character that cannot be stored (a lone surrogate or NUL).`);
  if (CONTROL.test(text)) report(path, `${name} contains a control character; only tab, line feed and carriage return are allowed.`);
}

/** The refusal of a school year (a number held by a member isSchoolYearName names) outside the configured range. */
export function checkSchoolYear(v: number | bigint, name: string, path: string, schoolYears: { min: number; max: number }, report: Report): void {
  if (outsideSchoolYears(v, schoolYears)) report(path, `${name} must be between ${schoolYears.min} and ${schoolYears.max}.`);
}

export function outsideSchoolYears(v: number | bigint, schoolYears: { min: number; max: number }): boolean {
  const year = Number(v);
  return year < schoolYears.min || year > schoolYears.max;
}

/**
 * Checks every leaf of a value at `path`: `name` is the member holding it (an item's, its
 * list's). For values the model does not shape (an extension, an object sent where text
 * belongs), so paths are built as it goes; the write plan checks the model's own leaves inline.
 */
export function checkLeaves(v: unknown, name: string, path: string, schoolYears: { min: number; max: number }, report: Report): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) checkLeaves(v[i], name, `${path}[${i}]`, schoolYears, report);
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) checkLeaves((v as Record<string, unknown>)[k], k, `${path}.${k}`, schoolYears, report);
  } else if (typeof v === 'string') {
    if (!PLAIN.test(v)) checkText(v, name, path, report);
  } else if ((typeof v === 'number' || typeof v === 'bigint') && isSchoolYearName(name)) {
    checkSchoolYear(v, name, path, schoolYears, report);
  }
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
}
