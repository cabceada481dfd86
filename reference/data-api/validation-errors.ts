import type { ErrorObject } from 'ajv';
import { isBlank } from './visible-text.js';
import { stringifyExact } from '../http/exact-json.js';

/**
 * Turns ajv errors into the seed's `validationErrors`: full JSON paths (`$.items[1].field`) to
 * messages worded as upstream does (decisions #4, #5).
 */
export type ValidationErrors = Record<string, string[]>;

/**
 * The most paths one refusal lists (issue 23 finding 2: 40,000 empty items made a 13 MB answer).
 * The seed wants every failure of a request in one response; past this many, the answer lists
 * the first ones found and its detail says how many were found, so a client knows there are more
 * (and fixes its loader, not 40,000 records one answer at a time).
 */
export const REPORTED_PATHS = 100;

/**
 * The members of a data-validation problem for these failures: all of them, or the first
 * REPORTED_PATHS with a detail saying how many paths failed. `complete` is false when the body
 * was searched only in part (a large refused body is read for its errors in a bounded copy, and
 * the checks stop once the list is full: write-body.ts), and the count is then a floor.
 */
export function reportedValidationErrors(errors: ValidationErrors, complete = true): { validationErrors: ValidationErrors; detail?: string } {
  const paths = Object.keys(errors);
  if (paths.length <= REPORTED_PATHS && complete) return { validationErrors: errors };
  const listed = paths.slice(0, REPORTED_PATHS);
  const validationErrors = Object.fromEntries(listed.map((p) => [p, errors[p]]));
  // The upstream detail, then the count (detail is the human text; the seed's shape has no count member).
  const counted = `it lists ${listed.length} of ${paths.length} failing paths`;
  const more = complete ? '.' : ' found; a refused body is searched only as far as the list needs, so more may fail.';
  return { validationErrors, detail: `Data validation failed. See 'validationErrors' for details: ${counted}${more}` };
}

/** The longest echo of a sent value in a message: a message names the value, it does not return the body. */
const SHOWN_LENGTH = 100;

/** A sent value as messages show it, cut to SHOWN_LENGTH characters. */
function shown(text: string): string {
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
}

/** `/requestBody/classPeriods/0/classPeriodReference` → `$.classPeriods[0].classPeriodReference`. */
export function jsonPath(segments: string[]): string {
  let out = '$';
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : `.${s}`;
  return out;
}

const lastName = (segments: string[]) => [...segments].reverse().find((s) => !/^\d+$/.test(s)) ?? 'value';

function decode(instancePath: string): string[] {
  return instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `body` is the body as read, big integers exact (messages echo them digit for digit). */
export function bodyErrors(errors: ErrorObject[], body: unknown): ValidationErrors {
  const out: ValidationErrors = {};
  const add = (path: string, message: string) => {
    const list = (out[path] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const e of errors) {
    if (!e.instancePath.startsWith('/requestBody')) continue;
    const segments = decode(e.instancePath).slice(1);
    const prop = lastName(segments);
    const value = valueAt(body, segments);
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        add(jsonPath([...segments, missing]), `${missing} is required.`);
        break;
      }
      case 'maxLength':
        add(jsonPath(segments), `${prop} Value should be at most ${(e.params as { limit: number }).limit} characters`);
        break;
      case 'minLength':
        add(jsonPath(segments), `${prop} Value should be at least ${(e.params as { limit: number }).limit} characters`);
        break;
      case 'pattern':
        add(jsonPath(segments), typeof value === 'string' && isBlank(value) ? `${prop} is required and should not be left empty.` : `${prop} cannot contain leading or trailing spaces.`);
        break;
      case 'minItems':
        add(jsonPath(segments), `${prop} is required and should not be left empty.`);
        break;
      case 'format': {
        const format = (e.params as { format: string }).format;
        if (format === 'int32' || format === 'int64') add(jsonPath(segments), `${prop} Value is outside the range of ${format}.`);
        else add(jsonPath(segments), `The value '${shown(String(value))}' is not valid for ${prop}.`);
        break;
      }
      case 'type':
        add(jsonPath(segments), `The value ${shown(String(stringifyExact(value)))} is not valid for ${prop}; expected ${(e.params as { type: string }).type}.`);
        break;
      case 'enum':
        add(jsonPath(segments), `The value ${shown(String(stringifyExact(value)))} is not valid for ${prop}.`);
        break;
      case 'minimum':
      case 'maximum':
        add(jsonPath(segments), `${prop} ${e.message ?? 'is out of range'}.`);
        break;
      default:
        // allOf / anyOf wrappers repeat their children's errors; anything else keeps ajv's words.
        if (e.keyword !== 'allOf' && e.keyword !== 'anyOf') add(jsonPath(segments), `${prop} ${e.message ?? 'is invalid'}.`);
    }
  }
  return out;
}

function valueAt(body: unknown, segments: string[]): unknown {
  let cur = body;
  for (const s of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[s];
  }
  return cur;
}

/** Query-parameter errors: the name of every offending parameter with what was wrong. */
export function queryErrors(errors: ErrorObject[], query: Record<string, unknown>): { name: string; keyword: string; message: string }[] {
  const out: { name: string; keyword: string; message: string }[] = [];
  for (const e of errors) {
    if (!e.instancePath.startsWith('/query')) continue;
    if (e.keyword === 'additionalProperties') {
      const name = (e.params as { additionalProperty: string }).additionalProperty;
      out.push({ name, keyword: e.keyword, message: `The query parameter '${name}' is not supported by this resource.` });
      continue;
    }
    const name = decode(e.instancePath)[1] ?? '';
    out.push({ name, keyword: e.keyword, message: `The value '${shown(String(query[name]))}' is not valid for ${name}.` });
  }
  return out;
}
