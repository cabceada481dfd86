import type { StoredRecord } from '../../store/store.js';
import { compact, header, personAtSchool, ref, type MapInput, type Row } from './rows.js';
import { PersonFacts } from './person-facts.js';
import { codeValue, type Doc, type Source } from './source.js';
import { PREFERRED_EMAIL, staffRole } from './vocabulary.js';

/**
 * users: one row per person and school (research §10): students at the schools of their school
 * associations, staff at the schools they are associated with, assigned to or teach at, contacts
 * at their students' schools. Demographic fields never appear here (they belong to /demographics).
 */
export interface Placement {
  person: StoredRecord;
  school: StoredRecord;
  schoolId: string;
  role: string;
  records: StoredRecord[];
  grades?: string[];
}

type Kind = 'student' | 'staff' | 'contact';

/**
 * Per kind of person, whether its identification codes join its userIds (research §10: students'
 * and staff's; a contact's are not mapped). Where each fact lives is the standard's (person-facts.ts).
 */
const CODES: Record<Kind, boolean> = { student: true, staff: true, contact: false };

export function mapUsers(input: MapInput): Row[] {
  const { src, shared } = input;
  const rows: Row[] = [];
  const students = studentPlacements(src);
  for (const [kind, placements] of [['student', students], ['staff', staffPlacements(src)], ['contact', contactPlacements(src, students)]] as const) {
    const facts = PersonFacts.of(src, kind);
    for (const p of placements) {
      if (!shared.orgRowId.has(p.schoolId)) continue;
      const sourcedId = personAtSchool(p.person, p.school);
      const email = pickEmail(facts.values(p.person, 'electronicMails') as Doc[], PREFERRED_EMAIL[kind]);
      const uniqueId = p.person.doc[facts.uniqueId];
      const system = `${facts.resource.name}IdentificationSystemDescriptor`;
      const codes = (CODES[kind] ? facts.codes(p.person) : [])
        .map((c) => ({ type: codeValue(c[system]), identifier: c.identificationCode }))
        .filter((c) => c.type && c.identifier !== undefined).map((c) => ({ type: c.type!, identifier: String(c.identifier) }));
      shared.userIds.add(sourcedId);
      rows.push({
        sourcedId,
        org: p.schoolId,
        reach: 'down',
        data: compact({
          ...header(sourcedId, p.person, ...p.records),
          username: email ?? '',
          userIds: [{ type: facts.uniqueId, identifier: String(uniqueId) }, ...codes],
          enabledUser: 'true',
          givenName: p.person.doc.firstName,
          familyName: p.person.doc.lastSurname,
          middleName: p.person.doc.middleName,
          preferredFirstName: p.person.doc.preferredFirstName,
          preferredLastName: p.person.doc.preferredLastSurname,
          roles: [{ roleType: 'primary', role: p.role, org: ref('org', shared.orgRowId.get(p.schoolId)!) }],
          identifier: String(uniqueId),
          email,
          grades: p.grades?.length ? p.grades : undefined,
        }),
      });
    }
  }
  return rows;
}

/** Students at the schools of their school associations (the latest entry per school wins). */
export function studentPlacements(src: Source): Placement[] {
  return src.memo('studentPlacements', () => placeStudents(src));
}

function placeStudents(src: Source): Placement[] {
  const byPair = new Map<string, Placement & { entry: string }>();
  for (const ssa of src.records('studentSchoolAssociation')) {
    const person = src.follow(ssa, 'studentReference');
    const school = src.follow(ssa, 'schoolReference');
    const schoolId = school && src.orgIdOf(school);
    if (!person || !school || !schoolId) continue;
    const key = `${person.id}|${school.id}`;
    const entry = String(ssa.doc.entryDate ?? '');
    const seen = byPair.get(key);
    if (seen && seen.entry >= entry) { seen.records.push(ssa); continue; }
    const grade = codeValue(ssa.doc.entryGradeLevelDescriptor);
    byPair.set(key, { person, school, schoolId, role: 'student', records: [...(seen?.records ?? []), ssa], entry, ...(grade ? { grades: [grade] } : {}) });
  }
  return [...byPair.values()];
}

/** Staff at schools they are associated with, assigned to, or teach a section at. */
function staffPlacements(src: Source): Placement[] {
  const byPair = new Map<string, Placement>();
  const place = (person: StoredRecord | undefined, school: StoredRecord | undefined, record: StoredRecord) => {
    const schoolId = school && src.orgIdOf(school);
    if (!person || !school || !schoolId || school.resource !== 'school') return;
    const key = `${person.id}|${school.id}`;
    const p = byPair.get(key) ?? byPair.set(key, { person, school, schoolId, role: '', records: [] }).get(key)!;
    p.records.push(record);
  };
  for (const a of src.records('staffSchoolAssociation')) place(src.follow(a, 'staffReference'), src.follow(a, 'schoolReference'), a);
  const assignments = new Map<string, StoredRecord[]>();
  for (const a of src.records('staffEducationOrganizationAssignmentAssociation')) {
    const person = src.follow(a, 'staffReference');
    if (!person) continue;
    (assignments.get(person.id) ?? assignments.set(person.id, []).get(person.id)!).push(a);
    place(person, src.follow(a, 'educationOrganizationReference'), a);
  }
  for (const a of src.records('staffSectionAssociation')) {
    const section = src.follow(a, 'sectionReference');
    const offering = section && src.follow(section, 'courseOfferingReference');
    place(src.follow(a, 'staffReference'), offering && src.follow(offering, 'schoolReference'), a);
  }
  // Role: the classification of an assignment at the school, else at one of its ancestors, else teacher.
  for (const p of byPair.values()) {
    const mine = assignments.get(p.person.id) ?? [];
    const at = (orgId: string) => mine.map((a) => {
      const org = src.follow(a, 'educationOrganizationReference');
      return org && src.orgIdOf(org) === orgId ? staffRole(codeValue(a.doc.staffClassificationDescriptor)) : undefined;
    }).find(Boolean);
    const ancestors = (id: string): string[] => (src.parents.get(id) ?? []).flatMap((x) => [x, ...ancestors(x)]);
    p.role = at(p.schoolId) ?? ancestors(p.schoolId).map(at).find(Boolean) ?? 'teacher';
  }
  return [...byPair.values()];
}

/**
 * Contacts at the schools of the students they are associated with, through the model's
 * associations that reach a contact (annotations.ts `relationships`: StudentContactAssociation,
 * DS 4.0's StudentParentAssociation through its parentReference).
 */
function contactPlacements(src: Source, students: Placement[]): Placement[] {
  const schoolsOf = new Map<string, Placement[]>();
  for (const p of students) (schoolsOf.get(p.person.id) ?? schoolsOf.set(p.person.id, []).get(p.person.id)!).push(p);
  const byPair = new Map<string, Placement>();
  for (const association of src.model.resources.filter((r) => r.relationship?.person === 'contact')) {
    for (const a of src.records(association.name)) {
      const person = src.follow(a, association.relationship!.via);
      const student = src.follow(a, 'studentReference');
      if (!person || !student) continue;
      const role = /guardian/i.test(codeValue(a.doc.relationDescriptor) ?? '') ? 'guardian' : 'parent';
      for (const s of schoolsOf.get(student.id) ?? []) {
        const key = `${person.id}|${s.school.id}`;
        const p = byPair.get(key) ?? byPair.set(key, { person, school: s.school, schoolId: s.schoolId, role, records: [] }).get(key)!;
        p.records.push(a);
      }
    }
  }
  return [...byPair.values()];
}

/** The preferred published address: by type preference, then the primary one, then the first. */
function pickEmail(emails: Doc[], preferred: readonly string[]): string | undefined {
  const published = emails.filter((e) => e.doNotPublishIndicator !== true && typeof e.electronicMailAddress === 'string');
  const rank = (e: Doc) => {
    const type = (codeValue(e.electronicMailTypeDescriptor) ?? '').toLowerCase();
    const i = preferred.indexOf(type);
    return (i < 0 ? preferred.length : i) * 2 + (e.primaryEmailAddressIndicator === true ? 0 : 1);
  };
  return published.sort((a, b) => rank(a) - rank(b))[0]?.electronicMailAddress as string | undefined;
}
