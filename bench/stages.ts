/**
 * Where a request's server CPU goes, by stage of the request path (issue #25's per-request
 * budget): routing, authentication, instance resolution, body reading, validation, the write
 * checks, the store, the journal, serialisation, and what Node and Koa cost around them.
 *
 * A profile sample belongs to the outermost frame of its stack that a stage claims: the store's
 * own number formatting (stringifyExact under naturalKey) is store time, a handler's response
 * formatting is serialisation. Samples no stage claims are Koa and its middleware packages, the
 * socket writes, the rest of Node (HTTP parsing, streams, timers), garbage collection, or our
 * handlers' own code in between;
 * the router's own code is routing (its middleware encloses every handler, so it claims only
 * its self time).
 * Shares come from a profiled pass; µs come from the unprofiled window's server CPU per
 * request, because the profiler slows the server down but (nearly) evenly.
 */
import { moduleOf } from './profile-summary.js';
import type { StageBudget } from './types.js';

interface Frame { functionName: string; url: string }
interface Node { id: number; callFrame: Frame; children?: number[] }
interface CpuProfile { nodes: Node[]; samples?: number[]; timeDeltas?: number[] }

/** The stages in the order of the request path; the last five take what no stage claims. */
export const STAGES = [
  'routing', 'authentication', 'authorization', 'instance resolution', 'body reading', 'validation',
  'write checks', 'store', 'journal', 'serialisation', 'handlers (other)', 'Koa and its middleware', 'socket writes',
  'Node (HTTP, streams, other)', 'garbage collection',
] as const;
export type Stage = (typeof STAGES)[number];

/** A project file without its build folder and extension: `dist/reference/x.js` → `reference/x`. */
const fileOf = (url: string) => moduleOf(url).replace(/^dist\//, '').replace(/\.[cm]?[jt]s$/, '');

/** The stage a frame belongs to, if it starts one. */
export function stageOf(frame: Frame): Stage | undefined {
  const file = fileOf(frame.url);
  const fn = frame.functionName;
  if (file === 'reference/data-api/routes') return 'routing';
  if (file.startsWith('reference/security/bearer') || file === 'reference/security/token-info') return 'authentication';
  if (file === 'reference/security/authorization' || (file === 'reference/data-api/context' && fn === 'authorize')) return 'authorization';
  if (file === 'reference/data-api/instances') return 'instance resolution';
  if (file === 'reference/http/body') return 'body reading';
  if (file === 'reference/data-api/validator' || file === 'reference/data-api/validation-errors' || file === 'ajv' || file === 'ajv-formats') return 'validation';
  if (['reference/data-api/normalize', 'reference/data-api/integrity', 'reference/data-api/content-checks', 'reference/data-api/bounded-copy', 'reference/data-api/visible-text', 'reference/data-api/write-plan'].includes(file)) return 'write checks';
  // A resource's generated write plan (write-plan.ts names its code so).
  if (frame.url.startsWith('write-plan/')) return 'write checks';
  if (file === 'reference/data-api/documents') return fn === 'render' || fn === 'renderedJson' ? 'serialisation' : 'write checks';
  if (file === 'reference/store/journal-entries' || file === 'reference/store/persistence' || file === 'reference/store/checksummed-lines') return 'journal';
  if (file.startsWith('reference/store/')) return 'store';
  if (file === 'reference/http/exact-json' && fn.startsWith('stringify')) return 'serialisation';
  return undefined;
}

/** The stage of a sample whose stack (outermost first) no stage claims. */
function unclaimed(leaf: Frame): Stage {
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  // The router's middleware is an ancestor of every handler: only its own code is routing.
  if (fileOf(leaf.url) === '@koa/router') return 'routing';
  const file = fileOf(leaf.url);
  if (file.startsWith('reference/')) return 'handlers (other)';
  if (SOCKET_WRITES.has(leaf.functionName) && !leaf.url) return 'socket writes';
  if (file.startsWith('node:') || file.startsWith('(')) return 'Node (HTTP, streams, other)';
  return 'Koa and its middleware';
}

/** V8's native socket writes (the write system call included): the response leaving the process. */
const SOCKET_WRITES = new Set(['writev', 'writeLatin1String', 'writeUtf8String', 'writeBuffer', 'writeAsciiString', 'writeUcs2String']);

/**
 * Each stage's share of the profile's busy time, times `cpuMicrosPerRequest`: µs per request.
 * Idle time is left out; the stages add up to `cpuMicrosPerRequest`.
 */
export function stageBudget(profile: CpuProfile, cpuMicrosPerRequest: number): StageBudget {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map<number, Stage | null>();
  const memo = (id: number): Stage | null => {
    // The outermost claiming frame: the parent's stage if it has one, else this frame's own.
    if (stageOfNode.has(id)) return stageOfNode.get(id)!;
    const up = parent.get(id);
    const s = (up !== undefined ? memo(up) : null) ?? stageOf(byId.get(id)!.callFrame) ?? null;
    stageOfNode.set(id, s);
    return s;
  };
  const us = new Map<Stage, number>();
  let busy = 0;
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const dt = Math.max(0, profile.timeDeltas?.[i + 1] ?? 0);
    const stage = memo(node.id) ?? unclaimed(node.callFrame);
    us.set(stage, (us.get(stage) ?? 0) + dt);
    busy += dt;
  }
  const micros = Object.fromEntries(STAGES.map((s) => [s, busy ? Math.round(((us.get(s) ?? 0) / busy) * cpuMicrosPerRequest * 10) / 10 : 0])) as Record<Stage, number>;
  return { cpuMicrosPerRequest, micros };
}

/** A table: one row per stage, one column per workload. */
export function formatStages(budgets: { workload: string; budget: StageBudget }[]): string {
  const w = Math.max(...STAGES.map((s) => s.length));
  const head = `${'server CPU µs/request by stage'.padEnd(w)}  ${budgets.map((b) => b.workload.padStart(15)).join('  ')}`;
  const rows = STAGES.map((s) => `${s.padEnd(w)}  ${budgets.map((b) => b.budget.micros[s].toFixed(1).padStart(15)).join('  ')}`);
  const total = `${'total (unprofiled window)'.padEnd(w)}  ${budgets.map((b) => b.budget.cpuMicrosPerRequest.toFixed(1).padStart(15)).join('  ')}`;
  return [head, ...rows, total].join('\n');
}
