/**
 * Summarises a V8 .cpuprofile (from the bench's --profile passes, or from `node --cpu-prof`):
 * top functions by self time, their inclusive time, and self time by module (package or project
 * file). Usage: npx tsx bench/profile-summary.ts file.cpuprofile [--top 20]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProfileEntry, ProfileModuleEntry, ProfileSummary } from './types.js';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface Node { id: number; callFrame: CallFrame; hitCount?: number; children?: number[]; positionTicks?: { line: number; ticks: number }[] }
interface CpuProfile { nodes: Node[]; startTime: number; endTime: number; samples?: number[]; timeDeltas?: number[] }

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A short location: package name for dependencies, project-relative path for our files. */
export function moduleOf(url: string): string {
  if (!url) return '(native / V8)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (path.startsWith('node:')) return path;
  if (path.startsWith(ROOT)) return path.slice(ROOT.length);
  return path;
}

const keyOf = (f: CallFrame) => `${f.functionName || '(anonymous)'}\u0000${f.url}\u0000${f.lineNumber}`;

export function summarise(profile: CpuProfile, top = 20): Omit<ProfileSummary, 'workload' | 'file'> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Self time per node from the sample timeline (falls back to hit counts).
  const selfUs = new Map<number, number>();
  if (profile.samples && profile.timeDeltas && profile.samples.length === profile.timeDeltas.length) {
    for (let i = 0; i < profile.samples.length; i++) {
      const dt = profile.timeDeltas[i + 1] ?? 0;
      selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + Math.max(0, dt));
    }
  } else {
    const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0) || 1;
    const per = (profile.endTime - profile.startTime) / hits;
    for (const n of profile.nodes) selfUs.set(n.id, (n.hitCount ?? 0) * per);
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);

  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const self = new Map<string, { frame: CallFrame; us: number; callers: Map<string, number>; lines: Map<number, number> }>();
  const modules = new Map<string, number>();
  for (const n of profile.nodes) {
    const us = selfUs.get(n.id) ?? 0;
    const k = keyOf(n.callFrame);
    const e = self.get(k) ?? { frame: n.callFrame, us: 0, callers: new Map(), lines: new Map() };
    e.us += us;
    const parent = parents.get(n.id);
    if (parent !== undefined && us) {
      const pk = byId.get(parent)!.callFrame;
      const label = `${pk.functionName || '(anonymous)'} (${moduleOf(pk.url)}${pk.url ? `:${pk.lineNumber + 1}` : ''})`;
      e.callers.set(label, (e.callers.get(label) ?? 0) + us);
    }
    const ticks = (n.positionTicks ?? []).reduce((a, t) => a + t.ticks, 0);
    for (const t of n.positionTicks ?? []) e.lines.set(t.line, (e.lines.get(t.line) ?? 0) + (us * t.ticks) / ticks);
    self.set(k, e);
    const m = idle.has(n.callFrame.functionName) ? n.callFrame.functionName : moduleOf(n.callFrame.url);
    modules.set(m, (modules.get(m) ?? 0) + us);
  }

  // Inclusive time: each node's subtree, counted once per function along any path (recursion).
  const inclusive = new Map<string, number>();
  for (const n of profile.nodes) {
    const us = selfUs.get(n.id) ?? 0;
    if (!us) continue;
    const seen = new Set<string>();
    let cur: number | undefined = n.id;
    while (cur !== undefined) {
      const k = keyOf(byId.get(cur)!.callFrame);
      if (!seen.has(k)) { seen.add(k); inclusive.set(k, (inclusive.get(k) ?? 0) + us); }
      cur = parents.get(cur);
    }
  }
  const busyUs = totalUs - [...self.values()].filter((e) => e.frame.functionName === '(idle)').reduce((s, e) => s + e.us, 0);

  const entries: ProfileEntry[] = [...self.entries()]
    .filter(([, e]) => e.frame.functionName !== '(idle)')
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([k, e]) => ({
      functionName: e.frame.functionName || '(anonymous)',
      location: `${moduleOf(e.frame.url)}${e.frame.url ? `:${e.frame.lineNumber + 1}` : ''}`,
      selfMs: round(e.us / 1000),
      selfPercentOfBusy: round((e.us / busyUs) * 100),
      inclusiveMs: round((inclusive.get(k) ?? e.us) / 1000),
      ...(e.callers.size ? { topCaller: [...e.callers.entries()].sort((a, b) => b[1] - a[1])[0][0] } : {}),
      ...(e.lines.size ? { hotLines: [...e.lines.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([line, us]) => `${line} (${Math.round((us / e.us) * 100)}%)`).join(', ') } : {}),
    }));
  const byModule: ProfileModuleEntry[] = [...modules.entries()]
    .filter(([m]) => m !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([module, us]) => ({ module, selfMs: round(us / 1000), selfPercentOfBusy: round((us / busyUs) * 100) }));
  return { durationMs: round(totalUs / 1000), busyMs: round(busyUs / 1000), top: entries, byModule };
}

const round = (x: number) => Math.round(x * 100) / 100;

export function formatSummary(s: Omit<ProfileSummary, 'workload' | 'file'>, title: string): string {
  const lines = [`${title}: ${s.busyMs} ms busy of ${s.durationMs} ms sampled`];
  lines.push('  self ms   self %   incl ms  function (location)');
  for (const e of s.top) {
    lines.push(`  ${pad(e.selfMs, 7)}  ${pad(e.selfPercentOfBusy, 6)}%  ${pad(e.inclusiveMs, 8)}  ${e.functionName} (${e.location})${e.hotLines ? ` lines ${e.hotLines}` : ''}${e.topCaller ? ` ← ${e.topCaller}` : ''}`);
  }
  lines.push('  by module (self):');
  for (const m of s.byModule.slice(0, 12)) lines.push(`  ${pad(m.selfMs, 7)}  ${pad(m.selfPercentOfBusy, 6)}%  ${m.module}`);
  return lines.join('\n');
}

const pad = (x: number, w: number) => x.toFixed(1).padStart(w);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts file.cpuprofile [--top N]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--top');
  const top = i > 0 ? Number(process.argv[i + 1]) : 20;
  console.log(formatSummary(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top), file));
}
