import type { RosterType } from '../../../spec/generate/openapi-rostering.js';
import type { CompiledModel } from '../../../spec/model/compiled.js';
import type { DataStore } from '../../store/store.js';
import { mapAcademicSessions } from './academic-sessions.js';
import { mapClasses } from './classes.js';
import { mapCourses } from './courses.js';
import { mapDemographics } from './demographics.js';
import { mapEnrollments } from './enrollments.js';
import { mapOrgs } from './orgs.js';
import type { MapInput, Row } from './rows.js';
import { Source } from './source.js';
import { mapUsers } from './users.js';

/**
 * Core data → OneRoster, one mapper per type, run in this order (later mappers use facts the
 * earlier ones recorded: org rows, school years, user rows).
 */
const MAPPERS: [RosterType, (input: MapInput) => Row[]][] = [
  ['org', mapOrgs],
  ['academicSession', mapAcademicSessions],
  ['course', mapCourses],
  ['class', mapClasses],
  ['user', mapUsers],
  ['demographics', mapDemographics],
  ['enrollment', mapEnrollments],
];

export interface Mapped {
  rows: Map<RosterType, Row[]>;
  source: Source;
}

export function mapStore(model: CompiledModel, store: DataStore): Mapped {
  const src = new Source(model, store);
  const input: MapInput = { src, done: new Map(), shared: { orgRowId: new Map(), schoolYears: new Map(), userIds: new Set() } };
  for (const [type, map] of MAPPERS) input.done.set(type, map(input));
  return { rows: input.done as Map<RosterType, Row[]>, source: src };
}

export type { Row } from './rows.js';
