import { compact, header, ref, yearOwner, type MapInput, type Row } from './rows.js';
import type { Doc } from './source.js';

/**
 * courses: one per course; `org` is the owning organization, `schoolYear` the school year of its
 * latest offering. Visible from the owner's ancestors and descendants (schools see district courses).
 */
export function mapCourses({ src, shared }: MapInput): Row[] {
  // Course → the school year (owner|year key) of its latest offering.
  const latest = new Map<string, { year: number; key: string }>();
  for (const offering of src.records('courseOffering')) {
    const course = src.follow(offering, 'courseReference');
    const school = src.follow(offering, 'schoolReference');
    const year = Number((offering.doc.sessionReference as Doc | undefined)?.schoolYear);
    const schoolId = school && src.orgIdOf(school);
    if (!course || !schoolId || !Number.isInteger(year)) continue;
    const seen = latest.get(course.id);
    if (!seen || year > seen.year) latest.set(course.id, { year, key: `${yearOwner(src, schoolId)}|${year}` });
  }
  const rows: Row[] = [];
  for (const course of src.records('course')) {
    const owner = src.follow(course, 'educationOrganizationReference');
    const ownerId = owner && src.orgIdOf(owner);
    if (!ownerId) continue;
    const sy = shared.schoolYears.get(latest.get(course.id)?.key ?? '');
    rows.push({
      sourcedId: course.id,
      org: ownerId,
      reach: 'both',
      data: compact({
        ...header(course.id, course),
        title: course.doc.courseTitle,
        courseCode: course.doc.courseCode,
        schoolYear: sy ? ref('academicSession', sy.sourcedId) : undefined,
        org: shared.orgRowId.has(ownerId) ? ref('org', shared.orgRowId.get(ownerId)!) : undefined,
      }),
    });
  }
  return rows;
}
