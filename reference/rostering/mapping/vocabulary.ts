/**
 * Descriptor code values → OneRoster values (research/rostering.md §10, the upstream default
 * descriptor mappings), matched case-insensitively on the code value after `#`. An unmapped
 * value maps to nothing and the field is omitted, except where a default is named.
 */
const table = (entries: Record<string, string[]>) => {
  const m = new Map<string, string>();
  for (const [to, froms] of Object.entries(entries)) for (const f of froms) m.set(f.toLowerCase(), to);
  return (code: string | undefined) => (code === undefined ? undefined : m.get(code.toLowerCase()));
};

/** Term descriptor → academicSession type; unmapped terms are `term` (the type is required). */
const termTable = table({
  semester: ['Semester', 'Fall Semester', 'Spring Semester', 'Summer Semester'],
  term: ['Quarter', 'First Quarter', 'Second Quarter', 'Third Quarter', 'Fourth Quarter', 'MiniTerm', 'Other'],
  gradingPeriod: ['Trimester', 'First Trimester', 'Second Trimester', 'Third Trimester'],
  schoolYear: ['Year Round'],
});
export const sessionType = (code: string | undefined): string => termTable(code) ?? 'term';

export const sex = table({
  female: ['Female'],
  male: ['Male'],
  other: ['Non-binary'],
  unspecified: ['Not Selected'],
});

export const raceFlag = table({
  americanIndianOrAlaskaNative: ['American Indian or Alaska Native', 'American Indian - Alaska Native'],
  asian: ['Asian'],
  blackOrAfricanAmerican: ['Black or African American', 'Black - African American'],
  nativeHawaiianOrOtherPacificIslander: ['Native Hawaiian or Pacific Islander', 'Native Hawaiian - Pacific Islander', 'Native Hawaiian or Other Pacific Islander'],
  white: ['White'],
});
export const RACE_FLAGS = ['americanIndianOrAlaskaNative', 'asian', 'blackOrAfricanAmerican', 'nativeHawaiianOrOtherPacificIslander', 'white'] as const;

/** Classroom position → the enrollment's `primary`. */
export const teacherOfRecord = (code: string | undefined): boolean => (code ?? '').toLowerCase() === 'teacher of record';

/** Staff classification → user role; a staff member with no mapped classification is a teacher. */
const staffTable = table({
  teacher: ['Elementary Teacher', 'Secondary Teacher', 'Kindergarten Teacher', 'Pre-Kindergarten Teacher', 'Ungraded Teacher', 'Substitute Teacher', 'Teacher', 'Instructional Coordinator'],
  aide: ['Instructional Aide', 'Aide', 'Teacher Aide'],
  counselor: ['Counselor', 'School Counselor'],
  principal: ['Principal', 'Assistant Principal'],
  siteAdministrator: ['School Administrator', 'School Leader', 'School Administrative Support Staff'],
  districtAdministrator: ['LEA Administrator', 'LEA Administrative Support Staff', 'LEA System Administrator', 'Superintendent', 'Assistant Superintendent', 'State Administrator'],
});
export const staffRole = (code: string | undefined): string | undefined => staffTable(code);

/** E-mail types preferred first, per kind of person. */
export const PREFERRED_EMAIL = {
  student: ['home/personal', 'personal', 'home', 'school', 'organization'],
  staff: ['work', 'organization', 'school'],
  contact: ['home/personal', 'personal', 'home', 'work'],
} as const;
