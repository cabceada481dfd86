import { compact, header, personAtSchool, type MapInput, type Row } from './rows.js';
import { codeValue, type Doc } from './source.js';
import { studentEdOrgAssociations, studentPlacements } from './users.js';
import { RACE_FLAGS, raceFlag, sex } from './vocabulary.js';

/**
 * demographics: one row per student and school, with the student's user sourcedId; sex, races
 * and ethnicity from the union of the student's education organization associations (research §10).
 * The flags are the strings "true" / "false" (the 1.2 schema).
 */
export function mapDemographics({ src, shared }: MapInput): Row[] {
  const seoas = studentEdOrgAssociations(src);
  const rows: Row[] = [];
  for (const p of studentPlacements(src)) {
    const sourcedId = personAtSchool(p.person, p.school);
    if (!shared.userIds.has(sourcedId)) continue;
    const mine = seoas.get(p.person.id) ?? [];
    const flags = new Set(mine.flatMap((a) => ((a.doc.races as Doc[] | undefined) ?? []).map((r) => raceFlag(codeValue(r.raceDescriptor)))).filter(Boolean));
    const sexCode = mine.map((a) => codeValue(a.doc.sexDescriptor)).find(Boolean) ?? codeValue(p.person.doc.birthSexDescriptor);
    const race = Object.fromEntries(RACE_FLAGS.map((f) => [f, String(flags.has(f))]));
    rows.push({
      sourcedId,
      org: p.schoolId,
      reach: 'down',
      data: compact({
        ...header(sourcedId, p.person, ...p.records, ...mine),
        birthDate: p.person.doc.birthDate,
        sex: sex(sexCode),
        ...race,
        demographicRaceTwoOrMoreRaces: String(flags.size > 1),
        hispanicOrLatinoEthnicity: String(mine.some((a) => a.doc.hispanicLatinoEthnicity === true)),
        countryOfBirthCode: codeValue(p.person.doc.birthCountryDescriptor),
        stateOfBirthAbbreviation: codeValue(p.person.doc.birthStateAbbreviationDescriptor),
        cityOfBirth: p.person.doc.birthCity,
      }),
    });
  }
  return rows;
}
