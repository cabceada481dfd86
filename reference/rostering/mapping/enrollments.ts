import { compact, header, personAtSchool, ref, type MapInput, type Row } from './rows.js';
import { codeValue } from './source.js';
import { teacherOfRecord } from './vocabulary.js';

/** Section associations → enrollments, by participant (table-driven). */
const PARTICIPANTS = [
  { resource: 'studentSectionAssociation', person: 'studentReference', role: 'student', primary: () => false },
  { resource: 'staffSectionAssociation', person: 'staffReference', role: 'teacher', primary: (doc: Record<string, unknown>) => teacherOfRecord(codeValue(doc.classroomPositionDescriptor)) },
] as const;

/**
 * enrollments: a participant in a class at the section's school. Only enrollments whose user
 * row exists are shown (the person is placed at that school), so every reference resolves.
 */
export function mapEnrollments({ src, shared }: MapInput): Row[] {
  const rows: Row[] = [];
  for (const p of PARTICIPANTS) {
    for (const a of src.records(p.resource)) {
      const section = src.follow(a, 'sectionReference');
      const offering = section && src.follow(section, 'courseOfferingReference');
      const school = offering && src.follow(offering, 'schoolReference');
      const person = src.follow(a, p.person);
      const schoolId = school && src.orgIdOf(school);
      if (!section || !school || !person || !schoolId || !shared.orgRowId.has(schoolId)) continue;
      const user = personAtSchool(person, school);
      if (!shared.userIds.has(user)) continue;
      rows.push({
        sourcedId: a.id,
        org: schoolId,
        reach: 'down',
        data: compact({
          ...header(a.id, a),
          user: ref('user', user),
          class: ref('class', section.id),
          school: ref('org', shared.orgRowId.get(schoolId)!),
          role: p.role,
          primary: String(p.primary(a.doc)),
          beginDate: a.doc.beginDate,
          endDate: a.doc.endDate,
        }),
      });
    }
  }
  return rows;
}
