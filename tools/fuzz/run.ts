/** The run: recipes through a bounded pool of senders. */
import http from 'node:http';
import { judge } from './judge.js';
import { materialize, type HttpRequest } from './materialize.js';
import { batchSeed, generate, type BodyRecipe, type Recipe } from './recipes.js';
import { send, type Exchange } from './send.js';
import type { FuzzTarget } from './target.js';

export interface Finding { index: number; recipe: Recipe; request: HttpRequest; exchange: Exchange; problems: string[] }

export interface FuzzSummary {
  seed: number;
  requests: number;
  /** Answers by status ('reset' for a closed connection, 'timeout' for none). */
  statuses: Record<string, number>;
  byService: Record<string, number>;
  serverErrors: number;
  hangs: number;
  findings: Finding[];
  /** Findings past the first `keepFindings` are counted only. */
  findingCount: number;
  crashed: boolean;
  durationMs: number;
  maxRssBytes?: number;
  slowestMs: number;
  /** What the slowest request was. */
  slowestKind?: string;
}

export interface RunOptions {
  target: FuzzTarget;
  seed: number;
  runs: number;
  /** Only POSTs and PUTs with this kind of body (`--recipe`). */
  only?: BodyRecipe['t'];
  concurrency?: number;
  timeoutMs?: number;
  keepFindings?: number;
  /** Absolute paths no answer may name (repository root, store directory). */
  roots?: string[];
  /** False once the server process has died (then the run stops: a crash). */
  alive?: () => boolean;
  /** Called about every `progressEvery` requests. */
  onProgress?: (done: number, summary: FuzzSummary) => void;
  progressEvery?: number;
  /** Samples memory of the server process (bytes). */
  rss?: () => number | undefined;
}

export async function runFuzz(opts: RunOptions): Promise<FuzzSummary> {
  const concurrency = opts.concurrency ?? 16;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const summary: FuzzSummary = { seed: opts.seed, requests: 0, statuses: {}, byService: {}, serverErrors: 0, hangs: 0, findings: [], findingCount: 0, crashed: false, durationMs: 0, slowestMs: 0 };
  const started = Date.now();
  const batch = 1000;
  let next = 0;
  let recipesFrom = -1;
  let current: Recipe[] = [];
  const recipeAt = (i: number): Recipe => {
    const b = Math.floor(i / batch);
    if (b !== recipesFrom) { current = generate(batchSeed(opts.seed, b), Math.min(batch, opts.runs - b * batch), opts.only); recipesFrom = b; }
    return current[i - b * batch];
  };
  const sampleRss = () => {
    const rss = opts.rss?.();
    if (rss !== undefined) summary.maxRssBytes = Math.max(summary.maxRssBytes ?? 0, rss);
  };
  sampleRss();
  const rssTimer = opts.rss ? setInterval(sampleRss, 200) : undefined;
  const every = opts.progressEvery ?? 1000;
  const worker = async () => {
    while (next < opts.runs && !summary.crashed) {
      const index = next++;
      const recipe = recipeAt(index);
      const request = materialize(recipe, opts.target);
      const exchange = await send(request, { timeoutMs: opts.timeoutMs ?? 15_000, agent });
      summary.requests++;
      summary.byService[request.service] = (summary.byService[request.service] ?? 0) + 1;
      const label = exchange.timedOut ? 'timeout' : exchange.status === undefined ? `error ${exchange.error}` : String(exchange.status);
      summary.statuses[label] = (summary.statuses[label] ?? 0) + 1;
      if ((exchange.status ?? 0) >= 500) summary.serverErrors++;
      if (exchange.timedOut) summary.hangs++;
      if (exchange.ms >= summary.slowestMs) { summary.slowestMs = exchange.ms; summary.slowestKind = request.kind; }
      if (opts.alive && !opts.alive()) summary.crashed = true;
      const problems = summary.crashed ? ['the server process died'] : judge(request, exchange, opts.target, opts.roots);
      if (problems.length) {
        summary.findingCount++;
        if (summary.findings.length < (opts.keepFindings ?? 25)) summary.findings.push({ index, recipe, request, exchange, problems });
      }
      if (opts.onProgress && summary.requests % every === 0) opts.onProgress(summary.requests, summary);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    if (rssTimer) clearInterval(rssTimer);
    sampleRss();
    agent.destroy();
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

/** A finding as text: the request (token elided), what came back, and what is wrong with it. */
export function describeFinding(f: Finding, target: FuzzTarget): string {
  const r = f.request;
  const hide = (s: string) => s.split(target.token).join('<token>').split(target.client.secret).join('<secret>');
  const body = r.body ? `${r.body.length} bytes${r.chunked ? ', chunked' : ''}: ${hide(r.body.subarray(0, 300).toString('utf8'))}${r.body.length > 300 ? '…' : ''}` : '(none)';
  const answer = f.exchange.status === undefined ? (f.exchange.timedOut ? 'no answer (timeout)' : `transport error ${f.exchange.error}`) : `${f.exchange.status} ${hide(f.exchange.body.subarray(0, 400).toString('utf8'))}`;
  return [
    `#${f.index} [${r.kind}] ${f.problems.join('; ')}`,
    `  ${r.method} ${hide(r.url.length > 300 ? `${r.url.slice(0, 300)}…` : r.url)}`,
    `  headers ${hide(JSON.stringify(r.headers)).slice(0, 400)}`,
    `  body    ${body}`,
    `  answer  ${answer}`,
  ].join('\n');
}

/** The summary as the lines the fuzzer prints. */
export function formatSummary(s: FuzzSummary): string {
  const histogram = Object.entries(s.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ');
  return [
    `requests      ${s.requests} (seed ${s.seed}; ${Object.entries(s.byService).map(([k, v]) => `${k} ${v}`).join(', ')})`,
    `statuses      ${histogram}`,
    `5xx           ${s.serverErrors}`,
    `hangs         ${s.hangs}`,
    `findings      ${s.findingCount}`,
    `crash         ${s.crashed ? 'yes' : 'no'}`,
    `max RSS       ${s.maxRssBytes === undefined ? 'n/a' : `${(s.maxRssBytes / 1024 / 1024).toFixed(1)} MB`}`,
    `duration      ${(s.durationMs / 1000).toFixed(1)} s (slowest request ${s.slowestMs} ms${s.slowestKind ? `: ${s.slowestKind.slice(0, 120)}` : ''})`,
  ].join('\n');
}
