import { K, N, R, coll, date, desc, descItem, int32, ref, refItem, resource, str, time, bool } from '../dsl.js';

/**
 * School calendar domain: calendars and their dates, academic weeks, class periods, bell
 * schedules, sessions and grading periods. academicWeek, bellSchedule, calendar, calendarDate and
 * classPeriod are the seed's; session and gradingPeriod are supporting resources (public data
 * standard 5.x: identities, required fields and the references the seed's resources need).
 */

export const academicWeek = resource({
  name: 'academicWeek',
  fields: {
    weekIdentifier: str(80, K),
    schoolReference: ref('school', K),
    beginDate: date(R),
    endDate: date(R),
    totalInstructionalDays: int32(R),
  },
});

export const calendar = resource({
  name: 'calendar',
  fields: {
    calendarCode: str(60, K),
    schoolReference: ref('school', K),
    schoolYearTypeReference: ref('schoolYearType', K),
    calendarTypeDescriptor: desc('calendarType', R),
    gradeLevels: coll(descItem('gradeLevel')),
  },
});

export const calendarDate = resource({
  name: 'calendarDate',
  fields: {
    date: date(K),
    calendarReference: ref('calendar', K),
    calendarEvents: coll(descItem('calendarEvent'), R),
  },
});

export const classPeriod = resource({
  name: 'classPeriod',
  updatable: true,
  fields: {
    classPeriodName: str(60, K),
    schoolReference: ref('school', K),
    meetingTimes: coll({
      startTime: time(K),
      endTime: time(K),
    }),
    officialAttendancePeriod: bool(N),
  },
});

export const bellSchedule = resource({
  name: 'bellSchedule',
  fields: {
    bellScheduleName: str(60, K),
    schoolReference: ref('school', K),
    classPeriods: coll(refItem('classPeriod'), R),
    alternateDayName: str(20, N),
    dates: coll({ date: date(K) }),
    gradeLevels: coll(descItem('gradeLevel')),
    startTime: time(N),
    endTime: time(N),
    totalInstructionalTime: int32({ nullable: true, description: 'Minutes per day.' }),
  },
});

/** Supporting (data standard 5.x): a session of a school year at a school. */
export const session = resource({
  name: 'session',
  updatable: true,
  fields: {
    sessionName: str(60, K),
    schoolReference: ref('school', K),
    schoolYearTypeReference: ref('schoolYearType', K),
    beginDate: date(R),
    endDate: date(R),
    termDescriptor: desc('term', R),
    totalInstructionalDays: int32(R),
    academicWeeks: coll(refItem('academicWeek')),
    gradingPeriods: coll(refItem('gradingPeriod')),
  },
});

/** Supporting (data standard 5.x): the key is descriptor + name + school + school year. */
export const gradingPeriod = resource({
  name: 'gradingPeriod',
  fields: {
    gradingPeriodDescriptor: desc('gradingPeriod', K),
    gradingPeriodName: str(60, K),
    schoolReference: ref('school', K),
    schoolYearTypeReference: ref('schoolYearType', K),
    beginDate: date(R),
    endDate: date(R),
    totalInstructionalDays: int32(R),
    periodSequence: int32(N),
  },
});
