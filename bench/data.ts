/**
 * The benchmark data set: one place that builds every document, so the preload (in the server
 * child, through DataStore) and the request bodies (in the driver child) have the same shape
 * and size.
 *
 * Layout: SCHOOLS schools, STUDENTS students, and studentSchoolAssociations numbered k = 0, 1, ...
 * Record k enrols student ⌊k / SCHOOLS⌋ mod STUDENTS at school k mod SCHOOLS on day
 * ⌊k / (SCHOOLS·STUDENTS)⌋ after 2000-01-01, so every school holds N / SCHOOLS records and the
 * natural key (student, school, entryDate) is unique for every k. Preloaded records use days
 * from 0; deleted records (for the /deletes feed) from DELETED_DAY_BASE; upserts of new keys
 * from NEW_KEY_DAY_BASE + a per-run offset, so no run reuses another's keys.
 *
 * Every association carries two references (student, school) and two descriptors (entry grade
 * level, entry type): the write path resolves four keys per request.
 */
export const SCHOOLS = 10;
export const STUDENTS = 1000;
export const FIRST_SCHOOL_ID = 255901001;
export const DELETED_DAY_BASE = 20_000;
export const NEW_KEY_DAY_BASE = 40_000;
export const KEYS_PER_DAY = SCHOOLS * STUDENTS;

export const GRADE_LEVELS = ['Ninth grade', 'Tenth grade', 'Eleventh grade', 'Twelfth grade'];
export const ENTRY_TYPES = ['Transfer from a public school', 'Next year school', 'Original entry into a United States school'];
export const ED_ORG_CATEGORIES = ['School'];

export const NS = {
  gradeLevel: 'uri://ed-fi.org/GradeLevelDescriptor',
  entryType: 'uri://ed-fi.org/EntryTypeDescriptor',
  educationOrganizationCategory: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor',
} as const;

/** The descriptors the data set uses, by descriptor name (without `Descriptor`). */
export const DESCRIPTOR_VALUES: Record<keyof typeof NS, string[]> = {
  gradeLevel: GRADE_LEVELS,
  entryType: ENTRY_TYPES,
  educationOrganizationCategory: ED_ORG_CATEGORIES,
};

export const schoolId = (i: number): number => FIRST_SCHOOL_ID + i;
export const studentUniqueId = (i: number): string => `BS${String(i).padStart(7, '0')}`;

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2000, 0, 1);
export const dayDate = (day: number): string => new Date(EPOCH + day * DAY_MS).toISOString().slice(0, 10);

export function descriptorDoc(descriptor: keyof typeof NS, codeValue: string, id: number): Record<string, unknown> {
  return { [`${descriptor}DescriptorId`]: id, codeValue, namespace: NS[descriptor], shortDescription: codeValue };
}

export function studentDoc(i: number): Record<string, unknown> {
  return { studentUniqueId: studentUniqueId(i), firstName: `First${i}`, lastSurname: `Last${i}`, birthDate: dayDate(-6000 + (i % 2000)) };
}

export function schoolDoc(i: number): Record<string, unknown> {
  return {
    schoolId: schoolId(i),
    nameOfInstitution: `Benchmark High School ${i}`,
    educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: `${NS.educationOrganizationCategory}#School` }],
    gradeLevels: GRADE_LEVELS.map((g) => ({ gradeLevelDescriptor: `${NS.gradeLevel}#${g}` })),
  };
}

/** Natural-key coordinates of association k when `day0` is its day offset base. */
export function ssaCoordinates(k: number, dayBase = 0): { school: number; student: number; day: number } {
  return { school: k % SCHOOLS, student: Math.floor(k / SCHOOLS) % STUDENTS, day: dayBase + Math.floor(k / KEYS_PER_DAY) };
}

/**
 * studentSchoolAssociation k as a client sends it and the store keeps it (descriptor values in
 * canonical spelling). `variant` changes a non-key member, so an upsert of an existing key is a
 * real update.
 */
export function ssaDoc(k: number, dayBase = 0, variant = 0): Record<string, unknown> {
  const { school, student, day } = ssaCoordinates(k, dayBase);
  return {
    studentReference: { studentUniqueId: studentUniqueId(student) },
    schoolReference: { schoolId: schoolId(school) },
    entryDate: dayDate(day),
    entryGradeLevelDescriptor: `${NS.gradeLevel}#${GRADE_LEVELS[k % GRADE_LEVELS.length]}`,
    entryTypeDescriptor: `${NS.entryType}#${ENTRY_TYPES[k % ENTRY_TYPES.length]}`,
    fullTimeEquivalency: variant % 2 === 0 ? 1 : 0.5,
    primarySchool: true,
    repeatGradeIndicator: false,
    schoolChoiceTransfer: false,
  };
}

/** Resource names the data set writes to (singular model names). */
export const RESOURCES = {
  ssa: 'studentSchoolAssociation',
  student: 'student',
  school: 'school',
} as const;

export const SSA_ENDPOINT = 'studentSchoolAssociations';

/** API clients the bench configures: one unrestricted, one whose claims name school 0 (rostering). */
export const BENCH_CLIENT = { key: 'bench-client', secret: 'bench-client-secret' };
export const ROSTER_CLIENT = { key: 'bench-roster', secret: 'bench-roster-secret' };
