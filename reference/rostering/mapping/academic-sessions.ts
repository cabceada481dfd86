import type { StoredRecord } from '../../store/store.js';
import { compact, header, ref, schoolYear, yearOwner, type MapInput, type Row } from './rows.js';
import { codeValue, type Doc } from './source.js';
import { sessionType } from './vocabulary.js';

/**
 * academicSessions: sessions (typed by their term descriptor), grading periods, and one school
 * year per (district, year) spanning the sessions of its schools (research §10).
 */
export function mapAcademicSessions(input: MapInput): Row[] {
  const { src } = input;
  const rows: Row[] = [];
  // Grading period → the session that lists it, its natural parent.
  const sessionOfPeriod = new Map<string, string>();
  for (const session of src.records('session')) {
    for (const item of (session.doc.gradingPeriods as Doc[] | undefined) ?? []) {
      const ref = src.resource('session').references.find((r) => r.path === '$.gradingPeriods[*].gradingPeriodReference');
      const gp = ref && item.gradingPeriodReference ? src.resolve(ref, item.gradingPeriodReference as Doc) : undefined;
      if (gp && !sessionOfPeriod.has(gp.id)) sessionOfPeriod.set(gp.id, session.id);
    }
  }
  const located = (record: StoredRecord) => {
    const school = src.follow(record, 'schoolReference');
    const schoolId = school && src.orgIdOf(school);
    const year = Number((record.doc.schoolYearTypeReference as Doc | undefined)?.schoolYear);
    return schoolId && Number.isInteger(year) ? { schoolId, year } : undefined;
  };
  const push = (record: StoredRecord, title: unknown, type: string, parent: string, year: number, schoolId: string) => rows.push({
    sourcedId: record.id,
    org: schoolId,
    reach: 'down',
    data: compact({
      ...header(record.id, record),
      title, type,
      startDate: record.doc.beginDate, endDate: record.doc.endDate,
      parent: ref('academicSession', parent),
      schoolYear: String(year),
    }),
  });

  for (const session of src.records('session')) {
    const at = located(session);
    if (!at) continue;
    const sy = schoolYear(input, yearOwner(src, at.schoolId), at.year, session.doc.beginDate as string, session.doc.endDate as string, session);
    push(session, session.doc.sessionName, sessionType(codeValue(session.doc.termDescriptor)), sy, at.year, at.schoolId);
  }
  for (const gp of src.records('gradingPeriod')) {
    const at = located(gp);
    if (!at) continue;
    const sy = schoolYear(input, yearOwner(src, at.schoolId), at.year, gp.doc.beginDate as string, gp.doc.endDate as string, gp);
    // Titled by its name (5.2 on); DS 4.0 has none (keyed by descriptor and periodSequence), so
    // there its descriptor's code value names it ("First Six Weeks"): a session needs a title.
    const title = gp.doc.gradingPeriodName ?? codeValue(gp.doc.gradingPeriodDescriptor);
    push(gp, title, 'gradingPeriod', sessionOfPeriod.get(gp.id) ?? sy, at.year, at.schoolId);
  }
  for (const sy of input.shared.schoolYears.values()) {
    rows.push({
      sourcedId: sy.sourcedId,
      org: sy.owner,
      reach: 'both',
      data: compact({
        ...header(sy.sourcedId, ...sy.records),
        title: `${sy.year - 1}-${sy.year}`,
        type: 'schoolYear',
        startDate: sy.start, endDate: sy.end,
        schoolYear: String(sy.year),
      }),
    });
  }
  return rows;
}
