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
 * Core data → OneRoster, one mapper per type, with the types whose facts it uses (org rows,
 * school years, user rows). A type is mapped only when a request needs it, after its
 * dependencies, so a read of /orgs after a write does not pay for mapping every enrollment.
 */
const MAPPERS: Record<RosterType, { after: RosterType[]; map: (input: MapInput) => Row[] }> = {
  org: { after: [], map: mapOrgs },
  academicSession: { after: [], map: mapAcademicSessions },
  course: { after: ['org', 'academicSession'], map: mapCourses },
  class: { after: ['org'], map: mapClasses },
  user: { after: ['org'], map: mapUsers },
  demographics: { after: ['user'], map: mapDemographics },
  enrollment: { after: ['org', 'user'], map: mapEnrollments },
};

/** The mapping of one data store at one moment, type by type on demand. */
export class Mapping {
  readonly source: Source;
  private readonly input: MapInput;

  constructor(model: CompiledModel, store: DataStore) {
    this.source = new Source(model, store);
    this.input = { src: this.source, done: new Map(), shared: { orgRowId: new Map(), schoolYears: new Map(), userIds: new Set() } };
  }

  rows(type: RosterType): Row[] {
    let rows = this.input.done.get(type);
    if (!rows) {
      for (const dep of MAPPERS[type].after) this.rows(dep);
      rows = MAPPERS[type].map(this.input);
      this.input.done.set(type, rows);
    }
    return rows;
  }
}

export type { Row } from './rows.js';
