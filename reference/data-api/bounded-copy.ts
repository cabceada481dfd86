/**
 * A copy of a JSON document cut to about `budget` values, for reporting what is wrong with it in
 * bounded work (issue 23 finding 2: 70,000 empty items gave 350,000 schema errors, and a 4 MB body
 * of them would give millions). Values are counted in document order; once the budget is spent,
 * every further array keeps only its first item, so a required array is never made empty (its
 * minimum of one item still holds) and every kept value keeps its path. Objects keep all their
 * members: the schema knows only so many of them.
 */
export function boundedCopy(value: unknown, budget: number): { copy: unknown; cut: boolean } {
  const state = { left: budget, cut: false };
  return { copy: copyOf(value, state), cut: state.cut };
}

function copyOf(value: unknown, state: { left: number; cut: boolean }): unknown {
  state.left--;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (out.length && state.left <= 0) {
        state.cut = true;
        break;
      }
      out.push(copyOf(item, state));
    }
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty: a member named __proto__ is data here, not the prototype.
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: copyOf(v, state), writable: true, enumerable: true, configurable: true });
    return out;
  }
  return value;
}
