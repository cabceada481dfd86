import { valuesAt } from '../endpoints.js';
import { invalidData } from '../status.js';

/**
 * The `filter` parameter (research/rostering.md §4): `<field><op><value>` clauses joined by
 * ` AND ` / ` OR ` (case-insensitive words, AND binding tighter, no parentheses), operators
 * `= != > >= < <= ~`, values single- or double-quoted (and then may hold spaces; a doubled quote
 * is a literal one) or bare words. Parsed into OR-of-ANDs; evaluated on the mapped record.
 */
export type Operator = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~';
export interface Clause { field: string; op: Operator; value: string }
/** Disjunction of conjunctions. */
export type Filter = Clause[][];

const OPERATORS: Operator[] = ['>=', '<=', '!=', '=', '>', '<', '~'];
const MAX_CLAUSES = 20;
const MAX_VALUE = 250;

export function parseFilter(text: string, filterable: Set<string>): Filter {
  if (text.includes('\u0000')) throw invalidData('Invalid filter: the expression contains a NUL character');
  let i = 0;
  const spaces = () => { const from = i; while (i < text.length && /\s/.test(text[i])) i++; return i - from; };
  const groups: Filter = [[]];
  let clauses = 0;
  spaces();
  if (i >= text.length) throw invalidData('Invalid filter: the expression is empty');
  for (;;) {
    groups[groups.length - 1].push(clause());
    if (++clauses > MAX_CLAUSES) throw invalidData(`Filter contains too many clauses. Maximum allowed: ${MAX_CLAUSES}`);
    const gap = spaces();
    if (i >= text.length) break;
    const word = /^[A-Za-z]+/.exec(text.slice(i))?.[0] ?? '';
    const logical = word.toUpperCase();
    if (!gap || (logical !== 'AND' && logical !== 'OR')) throw invalidData(`Invalid filter: expected AND or OR at position ${i + 1}`);
    i += word.length;
    if (!spaces()) throw invalidData(`Invalid filter: expected a space after ${logical}`);
    if (logical === 'OR') groups.push([]);
  }
  return groups;

  function clause(): Clause {
    const field = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i))?.[0];
    if (!field) throw invalidData(`Invalid filter clause at position ${i + 1}: expected a field name`);
    i += field.length;
    if (!filterable.has(field)) throw invalidData(`Field '${field}' is not allowed for filtering. Allowed fields: ${[...filterable].join(', ')}`);
    spaces();
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    const opText = /^[=!<>~]+/.exec(text.slice(i))?.[0] ?? text.slice(i, i + 1);
    if (!op || opText !== op) throw invalidData(`Invalid filter clause: unsupported operator '${opText}'`);
    i += op.length;
    spaces();
    const value = readValue();
    if (value.length > MAX_VALUE) throw invalidData(`Invalid filter clause: the value exceeds maximum length of ${MAX_VALUE} characters`);
    return { field, op, value };
  }

  function readValue(): string {
    const quote = text[i];
    if (quote === "'" || quote === '"') {
      let out = '';
      i++;
      for (;;) {
        if (i >= text.length) throw invalidData('Invalid filter clause: a quoted value is not closed');
        if (text[i] === quote) {
          if (text[i + 1] === quote) { out += quote; i += 2; continue; }
          i++;
          return out;
        }
        out += text[i++];
      }
    }
    const bare = /^[^\s'"]+/.exec(text.slice(i))?.[0];
    if (!bare) throw invalidData(`Invalid filter clause at position ${i + 1}: expected a value`);
    i += bare.length;
    return bare;
  }
}

/** Scalars of a field: array items (and `role` of role objects) each count, as text. */
function scalars(data: Record<string, unknown>, field: string): string[] {
  return valuesAt(data, field).flatMap((v) => {
    if (v === null || v === undefined) return [];
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return o.role !== undefined ? [String(o.role)] : o.sourcedId !== undefined ? [String(o.sourcedId)] : [];
    }
    return [String(v)];
  });
}

/**
 * SQL-like: a record without the field matches no clause (NULL compares to nothing); several
 * values (arrays) match `!=` when none is equal, any other operator when one matches.
 */
function holds(c: Clause, data: Record<string, unknown>): boolean {
  const values = scalars(data, c.field);
  if (!values.length) return false;
  if (c.op === '!=') return values.every((v) => v !== c.value);
  const needle = c.value.toLowerCase();
  return values.some((v) => {
    switch (c.op) {
      case '=': return v === c.value;
      case '>': return v > c.value;
      case '>=': return v >= c.value;
      case '<': return v < c.value;
      case '<=': return v <= c.value;
      default: return v.toLowerCase().includes(needle);
    }
  });
}

export const matches = (filter: Filter, data: Record<string, unknown>): boolean =>
  filter.some((group) => group.every((c) => holds(c, data)));
