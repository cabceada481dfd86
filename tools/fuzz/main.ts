/**
 * `npm run fuzz`: malformed requests against both services of the reference, run as a child
 * process (so that a crash is a crash and its memory can be sampled), over loopback HTTP with
 * bounded concurrency and a timeout per request. Every answer must be a 2xx (or 304) or a
 * well-formed 4xx body; no 5xx, no crash, no hang, no leak, memory under the bound. Every
 * background compaction of the run fails and the fuzz client has a record quota (target.ts);
 * afterwards the store check (store-check.ts): the quota held, SIGTERM ends the reference
 * cleanly, its files are 0600, it starts again on them at the same change version, and a
 * changed byte or a deleted state file is refused at start-up in one line.
 * The requests come from tools/fuzz/requests.ts, which the fixed-seed slice in
 * `npm test` (reference/tests/reliability/fuzz-slice.test.ts) shares.
 *
 * Usage: tsx tools/fuzz/main.ts [--runs 10000] [--seed S] [--concurrency 16]
 *        [--timeout-ms 15000] [--max-rss-mb 1024] [--heap-mb 768] [--show 10]
 *        [--port P] [--recipe KIND]
 * --port puts the data API on P and the rostering service on P+1 (default: free ports).
 * --recipe sends only POSTs and PUTs whose body is of one kind (tools/fuzz/recipes.ts,
 * BODY_RECIPES), e.g. the recipes that hold issue 23 fixed: numeric-text (finding 1),
 * many-items (finding 2), number-spelling, odd-text and nfc-pair (finding 8).
 * Exits 0 when clean; 1 on any finding (5xx, malformed 4xx, leak, hang), a crash, fewer
 * requests than asked, or memory over the bound.
 */
import { BODY_RECIPES, describeFinding, formatSummary, runFuzz, startFuzzTarget, type BodyRecipe } from './requests.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: npm run fuzz -- [--runs 10000] [--seed S] [--concurrency 16] [--timeout-ms 15000]
         [--max-rss-mb 1024] [--heap-mb 768] [--show 10] [--port P] [--recipe KIND]
  --port P       the data API on port P, the rostering service on P+1 (default: free ports)
  --recipe KIND  only POSTs and PUTs whose body is of this kind: ${Object.keys(BODY_RECIPES).join(', ')}
                 (issue 23: numeric-text holds finding 1, many-items finding 2, number-spelling,
                 odd-text and nfc-pair finding 8)`);
  process.exit(0);
}

function text(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  return inline ? inline.slice(name.length + 3) : i > 0 ? process.argv[i + 1] : undefined;
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = inline ? inline.slice(name.length + 3) : i > 0 ? process.argv[i + 1] : undefined;
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`--${name} takes a number, not ${raw}`);
  return n;
}

const runs = option('runs', 10_000);
const seed = option('seed', Date.now() % 2 ** 31);
const concurrency = option('concurrency', 16);
const timeoutMs = option('timeout-ms', 15_000);
const maxRssMb = option('max-rss-mb', 1024);
const heapMb = option('heap-mb', 768);
const show = option('show', 10);
const port = option('port', 0);
const only = text('recipe') as BodyRecipe['t'] | undefined;
if (only !== undefined && !(only in BODY_RECIPES)) throw new Error(`--recipe takes one of ${Object.keys(BODY_RECIPES).join(', ')}, not ${only}`);

const recipeArg = only ? ` --recipe ${only}` : '';
console.log(`fuzz: ${runs} requests${only ? ` (${only} bodies only)` : ''}, seed ${seed}, concurrency ${concurrency}, timeout ${timeoutMs} ms per request (reproduce: npm run fuzz -- --runs ${runs} --seed ${seed}${recipeArg})`);
const started = Date.now();
const { child, target, roots, storeCheck, close } = await startFuzzTarget({ heapMb, ...(port ? { port } : {}) });
let exitCode = 1;
try {
  const summary = await runFuzz({
    target,
    seed,
    runs,
    ...(only ? { only } : {}),
    concurrency,
    timeoutMs,
    keepFindings: Math.max(show, 25),
    roots,
    alive: () => !child.exit,
    rss: () => child.rssBytes(),
    progressEvery: Math.max(1, Math.ceil(runs / 20)),
    onProgress: (done, s) => console.log(`  ${String(done).padStart(6)}/${runs}  5xx ${s.serverErrors}  findings ${s.findingCount}  rss ${((child.rssBytes() ?? 0) / 1048576).toFixed(0)} MB  ${((Date.now() - started) / 1000).toFixed(0)} s`),
  });
  // Still alive and answering after the run?
  const health = await fetch(`${child.dataApiBaseUrl}/`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0);
  if (health !== 200) summary.crashed = true;
  console.log(formatSummary(summary));
  // The durable store after the run (stops the reference).
  const store = summary.crashed ? [] : await storeCheck();
  console.log(`store         ${store.length ? `FAILED\n${store.join('\n')}` : 'quota held; clean SIGTERM with compactions failing; files 0600; same change version after a restart; damage and a missing state file refused in one line, --recover reports the record lost'}`);
  const overMemory = (summary.maxRssBytes ?? 0) > maxRssMb * 1024 * 1024;
  if (overMemory) console.log(`memory        over the bound of ${maxRssMb} MB`);
  for (const f of summary.findings.slice(0, show)) console.log(describeFinding(f, target));
  if (summary.findingCount > show) console.log(`… and ${summary.findingCount - show} more findings`);
  // What the server logged for its 5xx answers, grouped by error and place.
  const causes = new Map<string, number>();
  const log = child.output().split('\n');
  log.forEach((line, i) => {
    const m = /^\[[^\]]*\] [A-Z]+ [^:]*: (\w*Error: .{0,100})/.exec(line) ?? /^rostering [A-Z]+ [^:]*: (.{0,100})/.exec(line);
    if (!m) return;
    const at = /^\s+at .*?\(?(reference\/[^:)]+:\d+)/.exec(log.slice(i + 1, i + 4).find((l) => /reference\//.test(l)) ?? '')?.[1] ?? '';
    const key = `${m[1].replace(/\d{3,}/g, 'N')}${at ? ` at ${at}` : ''}`;
    causes.set(key, (causes.get(key) ?? 0) + 1);
  });
  if (causes.size) console.log(`server errors logged:\n${[...causes].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${String(n).padStart(5)}  ${k}`).join('\n')}`);
  if (summary.crashed) console.log(`the reference died or stopped answering (exit ${JSON.stringify(child.exit ?? null)}); its last output:\n${child.output().slice(-3000)}`);
  exitCode = summary.findingCount || summary.serverErrors || summary.hangs || summary.crashed || overMemory || store.length || summary.requests < runs ? 1 : 0;
  console.log(exitCode ? 'fuzz: FAILED' : 'fuzz: passed');
} finally {
  await close();
}
process.exit(exitCode);
