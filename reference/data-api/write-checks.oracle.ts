/**
 * The write checks as they were before the write plan (write-plan.ts), one walk each, kept as
 * the oracle the plan is held to (verbatim but for checkUnification's shortcut for agreeing
 * values, which could only skip a refusal-free equality, and the required-text paths, taken from
 * content-checks.ts) (write-plan.test.ts): prune, then descriptor
 * resolution, then the content checks, then key unification, each over the whole document.
 * Used by tests only; nothing the reference serves imports it.
 */
import type { Field, Fields } from '../../spec/model/dsl.js';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { expandPaths } from '../store/json-path.js';
import { keyText } from '../store/keys.js';
import { findDescriptor, type RecordLookup, type ResolvedTargets } from '../store/references.js';
import { referenceProperties } from './documents.js';
import { canonicalSpelling } from './integrity.js';
import type { ValidationErrors } from './validation-errors.js';
import { requiredTextPaths } from './content-checks.js';
import { isBlank } from './visible-text.js';

export function prune(model: CompiledModel, fields: Fields, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(fields) as [string, Field][]) {
    const v = value[name];
    if (v === null || v === undefined) continue;
    const isObject = typeof v === 'object' && !Array.isArray(v);
    if ((f.kind === 'reference' || f.kind === 'object') && !isObject) continue;
    if (f.kind === 'collection' && !Array.isArray(v)) continue;
    switch (f.kind) {
      case 'reference': {
        const shape = referenceProperties(model, f.target);
        const ref: Record<string, unknown> = {};
        for (const p of shape) if ((v as Record<string, unknown>)[p] !== undefined && (v as Record<string, unknown>)[p] !== null) ref[p] = (v as Record<string, unknown>)[p];
        out[name] = ref;
        break;
      }
      case 'collection':
        out[name] = (v as unknown[]).map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? prune(model, f.item, item as Record<string, unknown>) : {}));
        break;
      case 'object':
        out[name] = prune(model, f.fields, v as Record<string, unknown>);
        break;
      default:
        if ('readOnly' in f && f.readOnly) continue;
        out[name] = v;
    }
  }
  return out;
}

export function resolveDescriptors(model: CompiledModel, store: RecordLookup, resource: CompiledResource, doc: Record<string, unknown>, resolved?: ResolvedTargets): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const d of resource.descriptors) {
    for (const at of expandPaths(doc, d.path)) {
      if (typeof at.value !== 'string') continue;
      const found = findDescriptor(model, store, d.descriptor, at.value);
      if (found) {
        at.set(canonicalSpelling(found));
        resolved?.add(found);
      } else (errors[at.path] ??= []).push(`${pascal(d.descriptor)}Descriptor value '${at.value}' does not exist.`);
    }
  }
  return errors;
}

const DANGEROUS = /<[A-Za-z!/?]|&#/;
const unstorable = (s: string) => !(s as string & { isWellFormed(): boolean }).isWellFormed() || s.includes('\0');
const CONTROL = /[\x01-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/;

export function contentErrors(resource: CompiledResource, doc: Record<string, unknown>, schoolYears: { min: number; max: number }): ValidationErrors {
  const errors: ValidationErrors = {};
  checkLeaves(doc, '$', [], errors, schoolYears);
  // Which paths hold required text is the model's to say, not a walk's: shared with the plan.
  for (const path of requiredTextPaths(resource)) {
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

const PLAIN = /^[\x20-\x25\x27-\x3b\x3d-\x7e]*$/;
const isSchoolYearName = (name: string) => name === 'schoolYear' || (name.length > 10 && name.endsWith('SchoolYear'));

function checkLeaves(v: unknown, name: string, keys: (string | number)[], errors: ValidationErrors, schoolYears: { min: number; max: number }): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) { keys.push(i); checkLeaves(v[i], name, keys, errors, schoolYears); keys.pop(); }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) { keys.push(k); checkLeaves((v as Record<string, unknown>)[k], k, keys, errors, schoolYears); keys.pop(); }
  } else if (typeof v === 'string') {
    if (PLAIN.test(v)) return;
    if (DANGEROUS.test(v)) addAt(errors, keys, `${name} contains a potentially dangerous value.`);
    if (unstorable(v)) addAt(errors, keys, `${name} contains a character that cannot be stored (a lone surrogate or NUL).`);
    if (CONTROL.test(v)) addAt(errors, keys, `${name} contains a control character; only tab, line feed and carriage return are allowed.`);
  } else if ((typeof v === 'number' || typeof v === 'bigint') && isSchoolYearName(name)) {
    const year = Number(v);
    if (year < schoolYears.min || year > schoolYears.max) addAt(errors, keys, `${name} must be between ${schoolYears.min} and ${schoolYears.max}.`);
  }
}

const addAt = (errors: ValidationErrors, keys: (string | number)[], message: string) => add(errors, keys.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p}.${k}`), '$'), message);
const add = (errors: ValidationErrors, path: string, message: string) => (errors[path] ??= []).push(message);

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
}

export function checkUnification(resource: CompiledResource, doc: Record<string, unknown>): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const eq of resource.equalities) {
    const found = eq.paths.flatMap((p) => expandPaths(doc, p)).filter((x) => x.value !== undefined && x.value !== null);
    const distinct = [...new Set(found.map((x) => stringifyExact(x.value)))];
    if (distinct.length > 1) {
      const message = `All values supplied for '${eq.name}' must match. Review all references (including those higher up in the resource's data) and align the following conflicting values: ${distinct.map((v) => `'${JSON.parse(v)}'`).join(', ')}`;
      for (const x of found) (errors[x.path] ??= []).push(message);
    }
  }
  return errors;
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
