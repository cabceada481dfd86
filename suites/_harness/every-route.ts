import { model } from './judged-model.js';
import { inParallel } from './in-parallel.js';

/**
 * Requests sent to every resource's routes at once, for rules about every collection or feed
 * (decision 43), each answer judged on its own and the wrong ones named together.
 */

/** Every resource's collection endpoint in the judged model, in name order. */
export const everyEndpoint: readonly string[] = model.resources.map((r) => r.endpoint).sort();

/** Requests in flight at once: one after another, 472 collections 40 ms away are 19 s of a test's 30. */
const AT_ONCE = 8;

/** An answer as far as the judges read it. */
export interface Answer { status(): number; text(): Promise<string> }

/**
 * `send`s every path, eight at a time, and returns `path → what is wrong` for each answer `judge`
 * finds wrong (undefined: right), in the paths' order.
 */
export async function wrongAnswers(paths: readonly string[], send: (path: string) => Promise<Answer>, judge: (res: Answer, text: string) => string | undefined): Promise<string[]> {
  const found = await inParallel(paths, AT_ONCE, async (path) => {
    const res = await send(path);
    const wrong = judge(res, await res.text());
    return wrong === undefined ? [] : [`${path} → ${wrong}`];
  });
  return found.flat();
}

/** The JSON an answer's text holds, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `type` of a problem-details answer's text, or undefined. */
export const problemTypeOf = (text: string): unknown => (jsonOf(text) as { type?: unknown } | undefined)?.type;
