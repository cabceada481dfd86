import { compact, header, ref, type MapInput, type Row } from './rows.js';
import type { Doc } from './source.js';

/** classes: one per section, through its course offering (course, school, session). */
export function mapClasses({ src, shared }: MapInput): Row[] {
  const rows: Row[] = [];
  for (const section of src.records('section')) {
    const offering = src.follow(section, 'courseOfferingReference');
    const school = offering && src.follow(offering, 'schoolReference');
    const session = offering && src.follow(offering, 'sessionReference');
    const course = offering && src.follow(offering, 'courseReference');
    const schoolId = school && src.orgIdOf(school);
    if (!offering || !schoolId || !session || !course || !shared.orgRowId.has(schoolId)) continue;
    const periods = [...new Set(((section.doc.classPeriods as Doc[] | undefined) ?? [])
      .map((p) => (p.classPeriodReference as Doc | undefined)?.classPeriodName)
      .filter((n): n is string => typeof n === 'string'))].sort();
    rows.push({
      sourcedId: section.id,
      org: schoolId,
      reach: 'down',
      data: compact({
        ...header(section.id, section, offering),
        title: offering.doc.localCourseTitle ?? course.doc.courseTitle,
        classCode: offering.doc.localCourseCode,
        classType: 'scheduled',
        course: ref('course', course.id),
        school: ref('org', shared.orgRowId.get(schoolId)!),
        terms: [ref('academicSession', session.id)],
        periods: periods.length ? periods : undefined,
      }),
    });
  }
  return rows;
}
