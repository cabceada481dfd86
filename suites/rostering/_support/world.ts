import type { HttpClient } from '../../_harness/http.js';
import { expect } from '../../_harness/expect.js';
import { WORLD_SCHOOL_YEAR, newEducationOrganizationId, resourceOf } from '../../_harness/builders.js';
import { DataClient, RUN_ID, itemUrlOf } from '../../_harness/fixtures.js';
import { fetchToken, sharedTokens } from '../../_harness/tokens.js';
import { model } from '../../_harness/judged-model.js';
import { contactLink, contactReference } from '../../_harness/persons.js';
import { credentials, target } from '../../_harness/target.js';
import type { RosteringOrganizations } from '../../targets/types.js';

/**
 * Core data for the rostering suites, written through the data API and deleted afterwards:
 *
 *   state agency SEA
 *   ├── district LEA1 ── school A (sessions Fall [semester] / Tri [trimester] / Q1 [quarter],
 *   │                   │          grading period GP in Fall, class period P1)
 *   │                   └── school B
 *   └── district LEA2 ── school C (session CFall)
 *   school D, under none of them (no records; tests add and remove some there)
 *
 *   courses M1 (owned by LEA1), M2 (owned by A), M3 (owned by LEA2)
 *   sections S1 (M1 at A, Fall, P1), S2 (M2 at A, Tri), S3 (M3 at C, CFall)
 *   students st1 at A (in S1, S2; demographics: Female, Asian + White, Hispanic, born in Austin),
 *            st2 at B, st3 at C (in S3)
 *   staff t1 at A (teacher of record of S1, work e-mail), t2 at C (assistant teacher of S3),
 *         p1 at B (principal)
 *   contact c1 of st1
 *
 * Descriptors get the upstream code values the mapping recognises ("Fall Semester", "Teacher of
 * Record" ...) in a namespace of their own, so they never collide.
 */
export interface World {
  year: number;
  sea: number; lea1: number; lea2: number; schoolA: number; schoolB: number; schoolC: number;
  /** A school under none of the others, where tests write and remove records. */
  schoolD: number;
  names: Record<'sea' | 'lea1' | 'lea2' | 'schoolA' | 'schoolB' | 'schoolC' | 'schoolD', string>;
  sessions: { fall: string; tri: string; q1: string; cFall: string; gradingPeriod: string };
  courses: { m1: string; m2: string; m3: string };
  students: { st1: string; st2: string; st3: string };
  staff: { t1: string; t2: string; p1: string };
  contact: string;
  emails: { t1: string; st1: string };
  /**
   * Values the world wrote that belong to one organization and to no other (its id and name, the
   * courses it owns, the sessions, class periods and people at a school), each unique to the run
   * but for the students' birth dates, which differ from every date the world writes. Tests that
   * must not assume how the service maps records (the seed shows no fields) find them by these.
   */
  marks: Record<OrgName, string[]>;
  /** What the world wrote only as demographics (the students' birth dates, a birth city). */
  demographicValues: string[];
}

export type OrgName = 'sea' | 'lea1' | 'lea2' | 'schoolA' | 'schoolB' | 'schoolC' | 'schoolD';

type Body = Record<string, unknown>;

let sequence = 0;
/** A short key unique to this run and worker process. */
export const key = (prefix: string) => `${prefix}${RUN_ID.slice(-6)}${process.env.TEST_WORKER_INDEX ?? 's'}x${++sequence}`;

/** A data-API client on a given data API, whose created records are deleted by `cleanup()`. */
export class Writer {
  readonly created: { url: string }[] = [];
  readonly client: DataClient;
  readonly namespace: string;
  private readonly years: string[] = [];
  /** Records made together (no one referencing another), as [first, end) indices of `created`: deleted together too. */
  private readonly groups: [number, number][] = [];
  private sequence = 0;

  /**
   * `seed`: the writer's keys are `<prefix><seed>x<n>`, the same wherever the same writes are
   * computed from the same seed (the shards of one run compute the world shard 1 wrote: DryWriter);
   * without one, unique to the run and worker process (key()).
   */
  constructor(request: HttpClient, token: string | undefined, dataApi = target.dataApi.baseUrl, private readonly seed?: string) {
    const dataRoot = `${dataApi}/data/v3/${target.dataApi.namespaceSegment}`;
    this.client = new DataClient(request, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi }, dataRoot }, token, this.created);
    this.namespace = `${target.testData.namespacePrefix}/rostering/${this.key('n')}`;
  }

  static async on(request: HttpClient, dataApi = target.dataApi.baseUrl, seed?: string): Promise<Writer> {
    const token = dataApi === target.dataApi.baseUrl ? sharedTokens().primary : await fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi } }, credentials(target.clients.primary)!);
    return new Writer(request, token, dataApi, seed);
  }

  /** A short key for what this writer writes (see the constructor's `seed`). */
  key(prefix: string): string {
    return this.seed ? `${prefix}${this.seed}x${++this.sequence}` : key(prefix);
  }

  create(resource: string, body: Body) {
    return this.client.create(resource, body);
  }

  /**
   * Runs creations at the same time: records none of which references another (one level of the
   * dependency graph). A deployment 40 ms away pays one round trip for the level, not one per
   * record, and cleanup() deletes them together as well. Nothing else may create meanwhile.
   */
  async together<T>(...creations: (() => Promise<T>)[]): Promise<T[]> {
    const first = this.created.length;
    try {
      return await Promise.all(creations.map((c) => c()));
    } finally {
      if (this.created.length > first) this.groups.push([first, this.created.length]);
    }
  }

  /** `<namespace>#<code>` of a new descriptor with that code value. */
  async descriptor(name: string, code: string): Promise<string> {
    const namespace = `${this.namespace}/${name.charAt(0).toUpperCase()}${name.slice(1)}Descriptor`;
    await this.create(`${name}Descriptors`, { codeValue: code, namespace, shortDescription: code });
    return `${namespace}#${code}`;
  }

  /** Makes sure the school year exists; one created here is deleted by cleanup(). */
  async schoolYear(year: number): Promise<void> {
    const found = await this.client.get(`schoolYearTypes?schoolYear=${year}`);
    expect(found.status()).toBe(200);
    if (((await found.json()) as unknown[]).length) return;
    // New, as just seen: announced in the ledger like any creation (DataClient.postNew), so a kill
    // before the answer cannot leak it; another run making the same year meanwhile answers 200.
    const res = await this.client.postNew('schoolYearTypes', { schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` });
    expect([200, 201], `POST schoolYearTypes: ${await res.text()}`).toContain(res.status());
    if (res.status() === 201) this.years.push(itemUrlOf(this.client.url('schoolYearTypes'), res.headers().location));
  }

  /** Deletes everything created, newest first (records made together, together); the school year last. */
  async cleanup(): Promise<void> {
    const failed: string[] = [];
    const remove = async (url: string) => {
      const res = await this.client.delete(url);
      if (res.status() !== 204 && res.status() !== 404) failed.push(`${url} → ${res.status()}`);
    };
    for (const level of [...this.levels().reverse(), this.years]) await Promise.all(level.map(remove));
    this.created.length = 0;
    this.groups.length = 0;
    if (failed.length) throw new Error(`rostering cleanup could not delete: ${failed.join(', ')}`);
  }

  /** The created records' URLs in creation order, a group made together() as one level, any other record alone. */
  private levels(): string[][] {
    const levels: string[][] = [];
    for (let i = 0; i < this.created.length;) {
      const group = this.groups.find(([first]) => first === i);
      const end = group ? group[1] : i + 1;
      levels.push(this.created.slice(i, end).map((c) => c.url));
      i = end;
    }
    return levels;
  }
}

/**
 * A writer that writes nothing: given the seed another shard of the run wrote with, it computes
 * the same keys and names, so buildWorld and buildDistrict return the world that shard wrote.
 */
export class DryWriter extends Writer {
  /** What the writer it stands for created, in order (earlier-worlds.ts finds and removes it). */
  readonly computed: { resource: string; body: Body }[] = [];

  constructor(dataApi: string, seed: string) {
    super(undefined as unknown as HttpClient, undefined, dataApi, seed);
  }

  override create(resource: string, body: Body): Promise<{ url: string; id: string; location: string }> {
    this.computed.push({ resource, body });
    return Promise.resolve({ url: '', id: '', location: '' });
  }

  override schoolYear(): Promise<void> {
    return Promise.resolve();
  }

  override cleanup(): Promise<void> {
    return Promise.resolve();
  }
}

/** An organization body: its category collection (`educationOrganizationCategories` on schools, `categories` elsewhere) plus the given members. */
const categoryMember = (endpoint: string) => resourceOf(endpoint).educationOrganization!.categories!;
const org = (endpoint: string, category: string, extra: Body) => ({ [categoryMember(endpoint)]: [{ educationOrganizationCategoryDescriptor: category }], ...extra });

/** A district with one school: the least data a routing test needs (ids drawn at random unless given). */
export async function buildDistrict(w: Writer, ids: { lea?: number; school?: number } = {}): Promise<{ lea: number; school: number; leaName: string; schoolName: string }> {
  const [category, leaCategory, grade] = await w.together(
    () => w.descriptor('educationOrganizationCategory', 'School'), () => w.descriptor('localEducationAgencyCategory', 'Independent'), () => w.descriptor('gradeLevel', 'Ninth grade'));
  const lea = ids.lea ?? newEducationOrganizationId();
  const school = ids.school ?? newEducationOrganizationId();
  const schoolName = `Routing School ${w.key('r')}`;
  const leaName = `Routing District ${w.key('r')}`;
  await w.create('localEducationAgencies', org('localEducationAgencies', category, { localEducationAgencyId: lea, nameOfInstitution: leaName, localEducationAgencyCategoryDescriptor: leaCategory }));
  await w.create('schools', org('schools', category, { schoolId: school, nameOfInstitution: schoolName, localEducationAgencyReference: { localEducationAgencyId: lea }, gradeLevels: [{ gradeLevelDescriptor: grade }] }));
  return { lea, school, leaName, schoolName };
}

/**
 * Creates a record of `home` with the given facts about a person (e-mails, sex, races …) where
 * the judged standard keeps each: on the record itself when it has the member, else on the
 * record of the person and an organization that has it (6.1 moved them to studentDemographic,
 * studentDirectory, staffDirectory …), keyed by `about` (default: the home body's person and
 * organization references).
 */
async function createWithFacts(w: Writer, home: string, body: Body, facts: Body, about: Body = body): Promise<void> {
  const own = resourceOf(home);
  const elsewhere = Object.keys(facts).filter((m) => !own.fields[m]);
  await w.create(own.endpoint, { ...body, ...Object.fromEntries(Object.entries(facts).filter(([m]) => own.fields[m])) });
  const keyedBy = Object.keys(about);
  const holders = new Map<string, Body>();
  for (const member of elsewhere) {
    const holder = model.resources.find((r) => r.fields[member] && r.identity.length === keyedBy.length && keyedBy.every((k) => r.fields[k]?.kind === 'reference'));
    if (!holder) throw new Error(`rostering world: no resource of the judged standard keeps ${member} about ${keyedBy.join(' and ')}`);
    holders.set(holder.endpoint, { ...(holders.get(holder.endpoint) ?? about), [member]: facts[member] });
  }
  for (const [endpoint, b] of holders) await w.create(endpoint, b);
}

/** The world, its organizations with the target's reserved ids (rostering.organizations). */
export async function buildWorld(w: Writer, ids: RosteringOrganizations): Promise<World> {
  const year = WORLD_SCHOOL_YEAR;
  // Level by level (Writer.together): what one level references was made by an earlier one.
  const d = async (name: string, ...codes: string[]) => Promise.all(codes.map((c) => w.descriptor(name, c)));
  const [[category], [leaCategory], [grade], [fallTerm, triTerm, quarterTerm], [courseSystem], [teacherOfRecord, assistant], [program], [female], [asian, white],
    [principal], [work, home], [gpDescriptor], [country], [state]] = await w.together(
    () => d('educationOrganizationCategory', 'School'), () => d('localEducationAgencyCategory', 'Independent'), () => d('gradeLevel', 'Ninth grade'),
    () => d('term', 'Fall Semester', 'First Trimester', 'First Quarter'), () => d('courseIdentificationSystem', 'LEA course code'),
    () => d('classroomPosition', 'Teacher of Record', 'Assistant Teacher'), () => d('programAssignment', 'Regular Education'), () => d('sex', 'Female'),
    () => d('race', 'Asian', 'White'), () => d('staffClassification', 'Principal'), () => d('electronicMailType', 'Work', 'Home/Personal'),
    () => d('gradingPeriod', 'First Six Weeks'), () => d('country', 'US'), () => d('stateAbbreviation', 'TX'),
  );
  await w.schoolYear(year);

  const { sea, lea1, lea2, schoolA, schoolB, schoolC, schoolD } = ids;
  const tag = w.key('w');
  const names = {
    sea: `State Agency ${tag}`, lea1: `Grand Bend District ${tag}`, lea2: `Other District ${tag}`,
    schoolA: `Grand Bend High School ${tag}`, schoolB: `Grand Bend Middle School ${tag}`, schoolC: `Other Elementary ${tag}`, schoolD: `Separate School ${tag}`,
  };
  const students = { st1: w.key('st'), st2: w.key('st'), st3: w.key('st') };
  // Birth dates no other date of the world equals (its dates are school-year dates in Jul–Dec, May).
  const born = { st1: '2010-12-10', st2: '2011-01-02', st3: '2012-06-23' };
  const emails = { t1: `t1.${tag}@example.test`.toLowerCase(), st1: `st1.${tag}@example.test`.toLowerCase() };
  const staff = { t1: w.key('t'), t2: w.key('t'), p1: w.key('p') };
  // The seed's parent: 4.0's parent, later standards' contact (persons.ts).
  const contact = w.key('c');
  const contacts = contactLink();

  // Who references nothing but descriptors: the state agency, the people.
  await w.together(
    () => w.create('stateEducationAgencies', org('stateEducationAgencies', category, { stateEducationAgencyId: sea, nameOfInstitution: names.sea })),
    () => w.create('students', { studentUniqueId: students.st1, firstName: 'Ada', lastSurname: `Lovelace${tag}`, middleName: 'King', birthDate: born.st1, birthCity: 'Austin', birthCountryDescriptor: country, birthStateAbbreviationDescriptor: state }),
    // Explicit nulls in the source: the rostering record must leave them out, not echo them.
    () => w.create('students', { studentUniqueId: students.st2, firstName: 'Grace', lastSurname: `Hopper${tag}`, middleName: null, preferredFirstName: null, birthCity: null, birthDate: born.st2 }),
    () => w.create('students', { studentUniqueId: students.st3, firstName: 'Alan', lastSurname: `Turing${tag}`, birthDate: born.st3 }),
    () => w.create('staffs', { staffUniqueId: staff.t2, firstName: 'Tom', lastSurname: `Assistant${tag}` }),
    () => w.create('staffs', { staffUniqueId: staff.p1, firstName: 'Pat', lastSurname: `Principal${tag}` }),
    () => w.create(contacts.person.endpoint, { [contacts.key]: contact, firstName: 'Carl', lastSurname: `Contact${tag}` }),
  );
  await w.together(...([[lea1, names.lea1], [lea2, names.lea2]] as const).map(([id, name]) => () =>
    w.create('localEducationAgencies', org('localEducationAgencies', category, { localEducationAgencyId: id, nameOfInstitution: name, localEducationAgencyCategoryDescriptor: leaCategory, stateEducationAgencyReference: { stateEducationAgencyId: sea } }))));
  await w.together(
    ...([[schoolA, lea1, names.schoolA], [schoolB, lea1, names.schoolB], [schoolC, lea2, names.schoolC]] as const).map(([id, lea, name]) => () =>
      w.create('schools', org('schools', category, { schoolId: id, nameOfInstitution: name, localEducationAgencyReference: { localEducationAgencyId: lea }, gradeLevels: [{ gradeLevelDescriptor: grade }] }))),
    () => w.create('schools', org('schools', category, { schoolId: schoolD, nameOfInstitution: names.schoolD, gradeLevels: [{ gradeLevelDescriptor: grade }] })),
  );
  // One after another: where the standard keeps the facts on records about the person, those reference it.
  await createWithFacts(w, 'staff', { staffUniqueId: staff.t1, firstName: 'Tess', lastSurname: `Teacher${tag}` }, { electronicMails: [{ electronicMailAddress: emails.t1, electronicMailTypeDescriptor: work }] },
    { staffReference: { staffUniqueId: staff.t1 }, educationOrganizationReference: { educationOrganizationId: schoolA } });
  await createWithFacts(w, 'studentEducationOrganizationAssociation', { studentReference: { studentUniqueId: students.st1 }, educationOrganizationReference: { educationOrganizationId: lea1 } }, {
    sexDescriptor: female, hispanicLatinoEthnicity: true, races: [{ raceDescriptor: asian }, { raceDescriptor: white }],
    electronicMails: [{ electronicMailAddress: emails.st1, electronicMailTypeDescriptor: home }],
  });

  const sessions = { fall: `Fall ${tag}`, tri: `Trimester ${tag}`, q1: `Quarter ${tag}`, cFall: `C Fall ${tag}`, gradingPeriod: `Six Weeks ${tag}` };
  const school = (schoolId: number) => ({ schoolReference: { schoolId }, schoolYearTypeReference: { schoolYear: year } });
  // GradingPeriod is keyed by gradingPeriodName from 5.2, by periodSequence in 4.0 (which has no name).
  const gpKey = resourceOf('gradingPeriod').fields.gradingPeriodName ? { gradingPeriodName: sessions.gradingPeriod } : { periodSequence: 1 };
  const courses = { m1: w.key('M1-'), m2: w.key('M2-'), m3: w.key('M3-') };
  // What references organizations and people only.
  await w.together(
    () => w.create('classPeriods', { classPeriodName: `P1 ${tag}`, schoolReference: { schoolId: schoolA } }),
    () => w.create('gradingPeriods', { gradingPeriodDescriptor: gpDescriptor, ...gpKey, ...school(schoolA), beginDate: `${year - 1}-08-20`, endDate: `${year - 1}-09-30`, totalInstructionalDays: 30 }),
    ...([[courses.m1, lea1, 'Algebra I'], [courses.m2, schoolA, 'Biology'], [courses.m3, lea2, 'Reading']] as const).map(([code, owner, title]) => () => w.create('courses', {
      courseCode: code, educationOrganizationReference: { educationOrganizationId: owner }, courseTitle: `${title} ${tag}`, numberOfParts: 1,
      identificationCodes: [{ courseIdentificationSystemDescriptor: courseSystem, identificationCode: code }],
    })),
    ...([[students.st1, schoolA], [students.st2, schoolB], [students.st3, schoolC]] as const).map(([id, schoolId]) => () =>
      w.create('studentSchoolAssociations', { studentReference: { studentUniqueId: id }, schoolReference: { schoolId }, entryDate: `${year - 1}-08-20`, entryGradeLevelDescriptor: grade })),
    ...([[staff.t1, schoolA], [staff.t2, schoolC], [staff.p1, schoolB]] as const).map(([id, schoolId]) => () =>
      w.create('staffSchoolAssociations', { staffReference: { staffUniqueId: id }, schoolReference: { schoolId }, programAssignmentDescriptor: program })),
    () => w.create('staffEducationOrganizationAssignmentAssociations', {
      staffReference: { staffUniqueId: staff.p1 }, educationOrganizationReference: { educationOrganizationId: schoolB }, staffClassificationDescriptor: principal, beginDate: `${year - 1}-07-01`,
    }),
    () => w.create(contacts.association.endpoint, { studentReference: { studentUniqueId: students.st1 }, ...contactReference(contacts, contact) }),
  );
  const session = (name: string, schoolId: number, term: string, begin: string, end: string, extra: Body = {}) =>
    w.create('sessions', { sessionName: name, ...school(schoolId), termDescriptor: term, beginDate: begin, endDate: end, totalInstructionalDays: 80, ...extra });
  await w.together(
    () => session(sessions.fall, schoolA, fallTerm, `${year - 1}-08-20`, `${year - 1}-12-20`, {
      gradingPeriods: [{ gradingPeriodReference: { gradingPeriodDescriptor: gpDescriptor, ...gpKey, schoolId: schoolA, schoolYear: year } }],
    }),
    () => session(sessions.tri, schoolA, triTerm, `${year - 1}-08-20`, `${year - 1}-11-15`),
    () => session(sessions.q1, schoolA, quarterTerm, `${year - 1}-08-20`, `${year - 1}-10-15`),
    () => session(sessions.cFall, schoolC, fallTerm, `${year - 1}-08-25`, `${year}-05-30`),
  );
  const offering = (code: string, owner: number, schoolId: number, sessionName: string) => ({
    localCourseCode: code, courseReference: { courseCode: code, educationOrganizationId: owner },
    schoolReference: { schoolId }, sessionReference: { schoolId, schoolYear: year, sessionName },
  });
  await w.together(
    () => w.create('courseOfferings', offering(courses.m1, lea1, schoolA, sessions.fall)),
    () => w.create('courseOfferings', offering(courses.m2, schoolA, schoolA, sessions.tri)),
    () => w.create('courseOfferings', offering(courses.m3, lea2, schoolC, sessions.cFall)),
  );
  const sectionRef = (code: string, schoolId: number, sessionName: string) => ({ sectionIdentifier: `${code}-01`, localCourseCode: code, schoolId, schoolYear: year, sessionName });
  const s1 = sectionRef(courses.m1, schoolA, sessions.fall);
  const s2 = sectionRef(courses.m2, schoolA, sessions.tri);
  const s3 = sectionRef(courses.m3, schoolC, sessions.cFall);
  await w.together(...[s1, s2, s3].map((sec) => () => w.create('sections', {
    sectionIdentifier: sec.sectionIdentifier,
    courseOfferingReference: { localCourseCode: sec.localCourseCode, schoolId: sec.schoolId, schoolYear: year, sessionName: sec.sessionName },
    ...(sec === s1 ? { classPeriods: [{ classPeriodReference: { classPeriodName: `P1 ${tag}`, schoolId: schoolA } }] } : {}),
  })));
  const enrol = (id: string, sec: typeof s1) => w.create('studentSectionAssociations', { studentReference: { studentUniqueId: id }, sectionReference: sec, beginDate: `${year - 1}-08-20` });
  await w.together(
    () => enrol(students.st1, s1), () => enrol(students.st1, s2), () => enrol(students.st3, s3),
    () => w.create('staffSectionAssociations', { staffReference: { staffUniqueId: staff.t1 }, sectionReference: s1, beginDate: `${year - 1}-08-20`, classroomPositionDescriptor: teacherOfRecord }),
    () => w.create('staffSectionAssociations', { staffReference: { staffUniqueId: staff.t2 }, sectionReference: s3, beginDate: `${year - 1}-08-25`, classroomPositionDescriptor: assistant }),
  );

  const marks: Record<OrgName, string[]> = {
    sea: [String(sea), names.sea],
    lea1: [String(lea1), names.lea1, courses.m1],
    lea2: [String(lea2), names.lea2, courses.m3],
    schoolA: [String(schoolA), names.schoolA, courses.m2, sessions.fall, sessions.tri, sessions.q1, ...(gpKey.gradingPeriodName ? [sessions.gradingPeriod] : []), `P1 ${tag}`,
      students.st1, emails.st1, `Lovelace${tag}`, born.st1, staff.t1, emails.t1, `Teacher${tag}`, contact, `Contact${tag}`],
    schoolB: [String(schoolB), names.schoolB, students.st2, `Hopper${tag}`, born.st2, staff.p1, `Principal${tag}`],
    schoolC: [String(schoolC), names.schoolC, sessions.cFall, students.st3, `Turing${tag}`, born.st3, staff.t2, `Assistant${tag}`],
    schoolD: [String(schoolD), names.schoolD],
  };
  return { year, sea, lea1, lea2, schoolA, schoolB, schoolC, schoolD, names, sessions, courses, students, staff, contact, emails, marks, demographicValues: [...Object.values(born), 'Austin'] };
}
