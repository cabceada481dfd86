/**
 * Long collections, for rules that hold however many items a body carries: a deployment that
 * reads a large body only in part (to bound what a refusal costs) must still store every item
 * and find a failure in the last one. ClassPeriod.meetingTimes is in every data standard served
 * (4.0, 5.2, 6.1) and its items are keyed by startTime and endTime alone, so any number of
 * distinct items is a valid body.
 */
export function meetingTimes(count: number): { startTime?: string; endTime?: string }[] {
  return Array.from({ length: count }, (_, i) => ({ startTime: clock(i), endTime: '23:59:59' }));
}

/** `HH:MM:SS` of a second of the day. */
const clock = (second: number) => [Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60].map((n) => String(n).padStart(2, '0')).join(':');

/** Items enough to pass a few thousand values: 1,000 items of three values each. */
export const LONG = 1000;
