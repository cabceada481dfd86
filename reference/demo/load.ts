import type { CompiledModel } from '../../spec/model/compiled.js';
import type { DataStore } from '../store/store.js';
import { Synthesizer } from './synthesize.js';

/**
 * The demo data set `npm start` loads: one state agency, two districts, three schools, school
 * years, calendars, sessions, grading periods, courses, offerings, sections, class periods,
 * students, staff, contacts and their associations, and at least one record of every other
 * resource, so the rostering service has something to serve. Curated records name the facts a
 * person looks for; everything else comes from the model (Synthesizer).
 */
const NS = 'uri://core.org';

const DESCRIPTORS: Record<string, string[]> = {
  gradeLevel: ['Ninth grade', 'Tenth grade', 'Eleventh grade', 'Twelfth grade', 'Sixth grade'],
  educationOrganizationCategory: ['State Education Agency', 'Local Education Agency', 'School'],
  localEducationAgencyCategory: ['Independent', 'Charter'],
  sex: ['Female', 'Male', 'Not Selected'],
  race: ['White', 'Asian', 'Black - African American', 'American Indian - Alaska Native'],
  term: ['Fall Semester', 'Spring Semester', 'Year Round'],
  gradingPeriod: ['First Six Weeks', 'Second Six Weeks'],
  classroomPosition: ['Teacher of Record', 'Assistant Teacher'],
  staffClassification: ['Teacher', 'Principal'],
  academicSubject: ['Mathematics', 'English Language Arts', 'Science'],
  calendarType: ['Student Specific', 'IEP'],
  calendarEvent: ['Instructional day', 'Holiday'],
  entryGradeLevel: [],
  relation: ['Mother', 'Father', 'Guardian'],
  programAssignment: ['Regular Education', 'Special Education'],
  stateAbbreviation: ['TX', 'CA'],
  addressType: ['Physical', 'Mailing'],
  courseIdentificationSystem: ['LEA course code', 'State course code'],
  assessmentCategory: ['State summative assessment', 'Benchmark test'],
  entryType: ['Next year school', 'Transfer'],
};

export function loadDemoData(model: CompiledModel, store: DataStore): { records: number } {
  const synth = new Synthesizer(model, store, NS);
  const create = (name: string, n: number, overrides: Record<string, unknown> = {}) => {
    const resource = model.byName.get(name);
    if (!resource) throw new Error(`demo data: no resource ${name}`);
    const doc = synth.document(resource, n, overrides);
    if (!doc) throw new Error(`demo data: cannot build ${name} #${n}`);
    if (!store.findByKey(resource, doc)) store.create(resource, doc);
  };
  const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

  // Descriptors: curated code values, three generic ones for every other descriptor.
  for (const d of model.descriptorNames) {
    const resource = model.byName.get(`${d}Descriptor`)!;
    const codes = DESCRIPTORS[d]?.length ? DESCRIPTORS[d] : [`${pascal(d)} A`, `${pascal(d)} B`, `${pascal(d)} C`];
    for (const code of codes) {
      store.create(resource, { [`${d}DescriptorId`]: store.nextDescriptorId(), codeValue: code, namespace: `${NS}/${pascal(d)}Descriptor`, shortDescription: code.slice(0, 75) });
    }
  }
  const desc = (d: string, code: string) => `${NS}/${pascal(d)}Descriptor#${code}`;
  const categories = (c: string) => [{ educationOrganizationCategoryDescriptor: desc('educationOrganizationCategory', c) }];

  for (const [i, year] of [2024, 2025, 2026].entries()) {
    create('schoolYearType', i, { schoolYear: year, currentSchoolYear: year === 2025, schoolYearDescription: `${year - 1}-${year}` });
  }
  create('stateEducationAgency', 0, { stateEducationAgencyId: 255900, nameOfInstitution: 'State Department of Education', categories: categories('State Education Agency') });
  const districts = [[255901, 'Grand Bend ISD'], [255902, 'Riverside Unified']] as const;
  for (const [i, [id, name]] of districts.entries()) {
    create('localEducationAgency', i, {
      localEducationAgencyId: id, nameOfInstitution: name, categories: categories('Local Education Agency'),
      localEducationAgencyCategoryDescriptor: desc('localEducationAgencyCategory', 'Independent'),
      stateEducationAgencyReference: { stateEducationAgencyId: 255900 },
    });
  }
  const schools = [[255901001, 'Grand Bend High School', 255901], [255901107, 'Grand Bend Middle School', 255901], [255902001, 'Riverside High School', 255902]] as const;
  for (const [i, [id, name, lea]] of schools.entries()) {
    create('school', i, {
      schoolId: id, nameOfInstitution: name, educationOrganizationCategories: categories('School'),
      gradeLevels: [{ gradeLevelDescriptor: desc('gradeLevel', i === 1 ? 'Sixth grade' : 'Ninth grade') }, { gradeLevelDescriptor: desc('gradeLevel', 'Tenth grade') }],
      localEducationAgencyReference: { localEducationAgencyId: lea },
    });
  }

  // Two semesters of the 2024-2025 school year at every school, with their real dates.
  const terms = [['Fall Semester', '2024-08-26', '2024-12-20', 78], ['Spring Semester', '2025-01-06', '2025-05-30', 98]] as const;
  for (const [i, [schoolId]] of schools.entries()) {
    for (const [j, [term, beginDate, endDate, days]] of terms.entries()) {
      create('session', i * terms.length + j, {
        sessionName: `2024-2025 ${term}`, schoolReference: { schoolId }, schoolYearTypeReference: { schoolYear: 2025 },
        beginDate, endDate, termDescriptor: desc('term', term), totalInstructionalDays: days,
      });
    }
  }

  // Courses of the districts (the rostering service shows a course to the organizations above
  // and below its owner, so the demo client, which claims the state agency, sees them all).
  const courses = [['ALG-1', 'Algebra I', 255901, 'Mathematics'], ['ENG-1', 'English I', 255901, 'English Language Arts'], ['BIO-1', 'Biology', 255902, 'Science']] as const;
  for (const [i, [courseCode, courseTitle, lea, subject]] of courses.entries()) {
    create('course', i, {
      courseCode, courseTitle, numberOfParts: 1, educationOrganizationReference: { educationOrganizationId: lea },
      academicSubjects: [{ academicSubjectDescriptor: desc('academicSubject', subject) }],
    });
  }

  // Everything else: a few records of every resource, references chosen among what exists.
  const counts: Record<string, number> = { studentSchoolAssociation: 10, section: 4, studentSectionAssociation: 10, staffSectionAssociation: 4 };
  // Persons by kind, whatever the standard calls them (DS 4.0's contacts are parents) and keys them.
  const PERSONS: Record<string, number> = { student: 10, staff: 4, contact: 3 };
  const PEOPLE: Record<string, string> = {};
  for (const r of model.resources.filter((x) => x.person)) {
    counts[r.name] = PERSONS[r.person!];
    PEOPLE[r.name] = r.identity[0].name;
  }
  // People get names a person recognises as names.
  const FIRST = ['Ava', 'Liam', 'Maya', 'Noah', 'Zoe', 'Ethan', 'Lena', 'Omar', 'Iris', 'Jonas'];
  const LAST = ['Garcia', 'Nguyen', 'Okafor', 'Schmidt', 'Patel', 'Rossi', 'Kim', 'Silva', 'Haddad', 'Novak'];
  const personOverrides = (name: string, n: number): Record<string, unknown> => PEOPLE[name]
    ? { [PEOPLE[name]]: `${name.charAt(0).toUpperCase()}${String(1001 + n)}`, firstName: FIRST[(n + name.length) % FIRST.length], lastSurname: LAST[(n * 3 + name.length) % LAST.length] }
    : {};
  for (const resource of synth.creationOrder()) {
    if (resource.isDescriptor) continue;
    const have = store.collection(resource.name).byId.size;
    for (let n = have; n < (counts[resource.name] ?? 2); n++) {
      const doc = synth.document(resource, n, personOverrides(resource.name, n));
      if (doc && !store.findByKey(resource, doc)) store.create(resource, doc);
    }
  }
  let records = 0;
  for (const _ of store.records()) records++;
  return { records };
}

/** Every school year of the range the store lacks, none of them current. */
export function loadSchoolYears(model: CompiledModel, store: DataStore, range: { min: number; max: number }): void {
  const resource = model.byName.get('schoolYearType')!;
  for (let year = range.min; year <= range.max; year++) {
    const doc = { schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` };
    if (!store.findByKey(resource, doc)) store.create(resource, doc);
  }
}
