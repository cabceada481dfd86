import { expect as playwrightExpect } from '@playwright/test';
import { isDeepStrictEqual } from 'node:util';

/**
 * Playwright's `expect`, for every suite, with a fast path for its passing matchers. Playwright
 * makes each `expect(…).matcher(…)` a step, with a stack trace captured and source-mapped and the
 * step sent to the runner: 21 % of a worker's CPU in a whole 4.0 run (6.1 of 28.5 s), the largest
 * single cost of a certification on two cores, where the suites' workers are most of the CPU.
 *
 * Here a matcher first decides alone, and only where its answer is sure to be Playwright's own:
 * it returns at once when Playwright's matcher would surely pass (Object.is for toBe; deep
 * strict equality, which implies toEqual's looser equality; plain number comparisons …). In any
 * other case, a failure above all, the call goes to Playwright's expect with the same arguments
 * and message, so what fails, and how it reads, is exactly as before. Every property of `expect`
 * (soft, poll, any, extend …) and every other matcher is Playwright's own.
 */
type Matchers = ReturnType<typeof playwrightExpect>;
type Args = Parameters<typeof playwrightExpect>;

const isNumber = (v: unknown): v is number => typeof v === 'number';
const hasLength = (v: unknown): v is { length: unknown } => v !== null && v !== undefined && typeof (v as { length?: unknown }).length === 'number';

/** When each matcher surely passes, by its own definition (Playwright's, from Jest's). */
const surelyPasses: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  toBe: (a, e) => Object.is(a, e),
  toEqual: (a, e) => isDeepStrictEqual(a, e),
  toHaveLength: (a, e) => hasLength(a) && isNumber(e) && a.length === e,
  toBeGreaterThan: (a, e) => isNumber(a) && isNumber(e) && a > e,
  toBeGreaterThanOrEqual: (a, e) => isNumber(a) && isNumber(e) && a >= e,
  toBeLessThan: (a, e) => isNumber(a) && isNumber(e) && a < e,
  toBeLessThanOrEqual: (a, e) => isNumber(a) && isNumber(e) && a <= e,
  toBeDefined: (a) => a !== undefined,
  toBeUndefined: (a) => a === undefined,
  toBeNull: (a) => a === null,
  toBeTruthy: (a) => !!a,
  toBeFalsy: (a) => !a,
  // toContain compares an array's items with ===, and a string's by substring.
  toContain: (a, e) => (Array.isArray(a) && a.indexOf(e) !== -1) || (typeof a === 'string' && typeof e === 'string' && a.includes(e)),
  // A pattern with state (g, y) would move its lastIndex: left to Playwright.
  toMatch: (a, e) => typeof a === 'string' && (typeof e === 'string' ? a.includes(e) : e instanceof RegExp && !e.global && !e.sticky && e.test(a)),
};

/** Matchers that take no expected value (Playwright refuses one); the others take exactly one. */
const NO_EXPECTED = new Set(['toBeDefined', 'toBeUndefined', 'toBeNull', 'toBeTruthy', 'toBeFalsy']);

/** When `.not.<matcher>` surely passes: its matcher surely fails. */
const surelyFails: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  toBe: (a, e) => !Object.is(a, e),
  toBeUndefined: (a) => a !== undefined,
  toBeNull: (a) => a !== null,
};

/** A property of Playwright's matchers object, its methods bound to it. */
function own(matchers: object, prop: string | symbol): unknown {
  const value = Reflect.get(matchers, prop) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(matchers) : value;
}

function fastMatchers(args: Args, real: () => Matchers): Matchers {
  const actual = args[0];
  const decide = (table: Record<string, (a: unknown, e: unknown) => boolean>, matchers: () => Record<string, unknown>) =>
    (name: string) => (...expected: unknown[]) => {
      // Any other number of arguments (a matcher error, a message) is Playwright's to judge.
      if (expected.length === (NO_EXPECTED.has(name) ? 0 : 1) && table[name](actual, expected[0])) return undefined;
      return (matchers()[name] as (...a: unknown[]) => unknown)(...expected);
    };
  const positive = decide(surelyPasses, () => real() as unknown as Record<string, unknown>);
  const negative = decide(surelyFails, () => real().not as unknown as Record<string, unknown>);
  const not = new Proxy({}, {
    get: (_, prop) => (typeof prop === 'string' && prop in surelyFails ? negative(prop) : own(real().not, prop)),
  });
  return new Proxy({}, {
    get: (_, prop) => {
      if (prop === 'not') return not;
      return typeof prop === 'string' && prop in surelyPasses ? positive(prop) : own(real(), prop);
    },
  }) as Matchers;
}

/** `base` (Playwright's expect) with the fast path; its properties are base's own. */
export function withFastMatchers(base: typeof playwrightExpect): typeof playwrightExpect {
  return new Proxy(base, {
    apply(target, thisArg, args: Args) {
      let matchers: Matchers | undefined;
      return fastMatchers(args, () => (matchers ??= Reflect.apply(target, thisArg, args) as Matchers));
    },
  });
}

export const expect = withFastMatchers(playwrightExpect);
