import { createHash } from 'node:crypto';
import type { StoredRecord } from '../../store/store.js';
import type { Doc, Source } from './source.js';

/**
 * A mapped OneRoster record plus what decides who may see it (research/rostering.md §11):
 * `org` is the education organization it belongs to; `reach` says whether callers see it from
 * that organization and its ancestors only (`down`: the claim must name the org or an ancestor),
 * or also from its descendants (`both`: schools see their district's courses and school years).
 */
export interface Row {
  sourcedId: string;
  /** The OneRoster object, null members left out; hrefs relative to the rostering prefix. */
  data: Doc;
  org: string;
  reach: 'down' | 'both';
}

export type RefType = 'org' | 'academicSession' | 'class' | 'course' | 'user';

const ENDPOINT: Record<RefType, string> = { org: 'orgs', academicSession: 'academicSessions', class: 'classes', course: 'courses', user: 'users' };

/** A GUIDRef; the href is completed with the request's origin and route prefix on output. */
export const ref = (type: RefType, sourcedId: string) => ({ href: `/${ENDPOINT[type]}/${sourcedId}`, sourcedId, type });

/** Stable 32-hex-digit ids for rows that are not one record (a person at a school, a school year). */
export const derivedId = (...parts: string[]): string => createHash('md5').update(parts.join('\u0000')).digest('hex');

/** The object without its null and undefined members (decisions #24). */
export function compact(o: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** The latest last-modified time of the records a row is made of. */
export const modified = (...records: (StoredRecord | undefined)[]): string =>
  records.reduce((max, r) => (r && r.lastModified > max ? r.lastModified : max), '');

/** Common members: sourcedId, status (always active: deleted records are gone), dateLastModified. */
export const header = (sourcedId: string, ...records: (StoredRecord | undefined)[]) => ({
  sourcedId, status: 'active', dateLastModified: modified(...records),
});

/** What every mapper receives: the core data and the rows already mapped (in table order). */
export interface MapInput {
  src: Source;
  done: Map<string, Row[]>;
  shared: Shared;
}

/** Facts several mappers need, computed once per build. */
export interface Shared {
  /** Organization id → the org row's sourcedId, for the org types OneRoster shows. */
  orgRowId: Map<string, string>;
  /** School years by `<owner org id>|<year>`, collected while mapping sessions. */
  schoolYears: Map<string, { sourcedId: string; owner: string; year: number; start: string; end: string; records: StoredRecord[] }>;
  /** Sourced ids of the person-at-school rows, so enrollments only point at users that exist. */
  userIds: Set<string>;
}

/** The organization that owns a school's school years: its district, else the school itself. */
export function yearOwner(src: Source, schoolOrgId: string): string {
  const lea = (src.parents.get(schoolOrgId) ?? []).find((p) => src.orgs.get(p)?.resource.name === 'localEducationAgency');
  return lea ?? schoolOrgId;
}

/** Registers (or widens) the school year of an owner and returns its row's sourcedId. */
export function schoolYear(input: MapInput, owner: string, year: number, start: string, end: string, record: StoredRecord): string {
  const key = `${owner}|${year}`;
  let sy = input.shared.schoolYears.get(key);
  if (!sy) {
    const ownerRecord = input.src.orgs.get(owner)?.record;
    sy = { sourcedId: derivedId('schoolYear', ownerRecord?.id ?? owner, String(year)), owner, year, start, end, records: [] };
    input.shared.schoolYears.set(key, sy);
  }
  if (start && (!sy.start || start < sy.start)) sy.start = start;
  if (end && (!sy.end || end > sy.end)) sy.end = end;
  sy.records.push(record);
  return sy.sourcedId;
}

/** The person-at-school row id (research §10: one user row per person and school). */
export const personAtSchool = (person: StoredRecord, school: StoredRecord) => derivedId('user', person.id, school.id);
