import { PersonFacts } from './person-facts.js';
import { compact, header, personAtSchool, type MapInput, type Row } from './rows.js';
import { codeValue, type Doc } from './source.js';
import { studentPlacements } from './users.js';
import { RACE_FLAGS, raceFlag, sex } from './vocabulary.js';

/**
 * demographics: one row per student and school, with the student's user sourcedId; sex, races
 * and ethnicity from the union of the records about the student that hold them (research §10:
 * its education organization associations; in DS 6.1 its StudentDemographic records, where
 * those facts moved: person-facts.ts). The flags are the strings "true" / "false" (the 1.2 schema).
 */
export function mapDemographics({ src, shared }: MapInput): Row[] {
  const facts = PersonFacts.of(src, 'student');
  const rows: Row[] = [];
  for (const p of studentPlacements(src)) {
    const sourcedId = personAtSchool(p.person, p.school);
    if (!shared.userIds.has(sourcedId)) continue;
    const races = facts.values(p.person, 'races') as Doc[];
    const flags = new Set(races.map((r) => raceFlag(codeValue(r.raceDescriptor))).filter(Boolean));
    const sexCode = facts.values(p.person, 'sexDescriptor').map(codeValue).find(Boolean) ?? codeValue(p.person.doc.birthSexDescriptor);
    const race = Object.fromEntries(RACE_FLAGS.map((f) => [f, String(flags.has(f))]));
    const holders = new Set(['races', 'sexDescriptor', 'hispanicLatinoEthnicity'].flatMap((m) => facts.holding(p.person, m)).filter((r) => r !== p.person));
    rows.push({
      sourcedId,
      org: p.schoolId,
      reach: 'down',
      data: compact({
        ...header(sourcedId, p.person, ...p.records, ...holders),
        birthDate: p.person.doc.birthDate,
        sex: sex(sexCode),
        ...race,
        demographicRaceTwoOrMoreRaces: String(flags.size > 1),
        hispanicOrLatinoEthnicity: String(facts.values(p.person, 'hispanicLatinoEthnicity').some((v) => v === true)),
        countryOfBirthCode: codeValue(p.person.doc.birthCountryDescriptor),
        stateOfBirthAbbreviation: codeValue(p.person.doc.birthStateAbbreviationDescriptor),
        cityOfBirth: p.person.doc.birthCity,
      }),
    });
  }
  return rows;
}
