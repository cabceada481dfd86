/**
 * How one rule-scoped check is written into a test's annotations, and read back by the reporter.
 * Plain text, so the JUnit report (which carries annotations as properties) and Playwright's own
 * HTML report show it as it is: `FAIL data.errors.detail-wording — detail as upstream words it`.
 */
export type CheckOutcome = 'pass' | 'fail' | 'not-applicable';

export interface CheckRecord {
  rule: string;
  title: string;
  outcome: CheckOutcome;
  /** A failed MUST check ends its test: what came after it did not run. */
  stopped?: boolean;
  /** The first lines of the failure, or why the check did not apply. */
  detail?: string;
}

export const CHECK_ANNOTATION = 'check';
/** A rule whose condition a test really brought about (an expired token presented, say). */
export const EVIDENCE_ANNOTATION = 'evidence';
/** Rules a test touches besides the one it exists for; they get a verdict only from its checks. */
export const EXERCISES_ANNOTATION = 'exercises';

const WORD: Record<CheckOutcome, string> = { pass: 'PASS', fail: 'FAIL', 'not-applicable': 'N/A' };
const STOPPED = ' (the test stopped here)';

export function formatCheck(c: CheckRecord): string {
  const head = `${WORD[c.outcome]} ${c.rule} — ${c.title}${c.stopped ? STOPPED : ''}`;
  return c.detail ? `${head}\n${c.detail}` : head;
}

export function parseCheck(text: string): CheckRecord | undefined {
  const newline = text.indexOf('\n');
  const head = newline < 0 ? text : text.slice(0, newline);
  const space = head.indexOf(' ');
  const dash = head.indexOf(' — ', space + 1);
  if (space < 0 || dash < 0) return undefined;
  const outcome = (Object.keys(WORD) as CheckOutcome[]).find((o) => WORD[o] === head.slice(0, space));
  if (!outcome) return undefined;
  let title = head.slice(dash + 3);
  const stopped = title.endsWith(STOPPED);
  if (stopped) title = title.slice(0, -STOPPED.length);
  return {
    rule: head.slice(space + 1, dash), title, outcome,
    ...(stopped ? { stopped } : {}),
    ...(newline >= 0 ? { detail: text.slice(newline + 1) } : {}),
  };
}

/** `<rule-id> <what happened>` */
export const formatEvidence = (rule: string, what: string) => `${rule} ${what}`;
export const evidenceRule = (text: string) => text.split(' ', 1)[0];
