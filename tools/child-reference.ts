/**
 * The reference as a child process (`node --import tsx reference/main.ts --config <file>`), for
 * tests and tools that must see a crash as a crash, kill it with SIGKILL, or sample its memory:
 * the fuzzer (tools/fuzz) and the reliability tests (reference/tests/reliability/).
 *
 *   const child = await startChildReference({ config: { clients: [...], dataStore: 'file:/tmp/x/store.json' } });
 *   child.dataApiBaseUrl;   // http://127.0.0.1:<port>/v7.3/api, from the line main.ts prints
 *   child.rssBytes();       // resident set size now (Linux /proc), or undefined
 *   child.kill('SIGKILL'); await child.exited;
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReferenceConfig } from '../reference/config/types.js';
import { ROSTERING_ENV_VARS } from '../reference/rostering/config.js';

export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAIN = fileURLToPath(new URL('../reference/main.ts', import.meta.url));

/** Environment variables that would override the child's configuration file (which alone decides). */
const OVERRIDING_VARIABLES = ['REFERENCE_PORT', 'ROSTERING_PORT', 'REFERENCE_DATA_STORE', 'REFERENCE_PAGE_SIZE_LIMIT', 'REFERENCE_ROSTERING_SCOPE_BASE', 'REFERENCE_CONFIG', 'REFERENCE_ISSUER_PRIVATE_KEY_PEM', 'REFERENCE_ADMIN_KEY', 'REFERENCE_ADMIN_SECRET', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS', ...ROSTERING_ENV_VARS];

export interface ChildExit { code: number | null; signal: NodeJS.Signals | null }

export interface ChildReference {
  pid: number;
  /** `{base_url}` of the data API: origin + basePath. */
  dataApiBaseUrl: string;
  /** Origin of the rostering service (paths start with /std/roster/...). */
  rosteringBaseUrl: string;
  /** The configuration file the child was started with. */
  configFile: string;
  /** Everything the child wrote to stdout and stderr so far, in arrival order. */
  output(): string;
  /** Resident set size in bytes, read from /proc (undefined where there is none, or after exit). */
  rssBytes(): number | undefined;
  /** Set once the child has exited. */
  exit?: ChildExit;
  exited: Promise<ChildExit>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM (a clean shutdown: durable stores are compacted), SIGKILL after `graceMs` (default 30 s: a hang, not a slow machine). */
  stop(graceMs?: number): Promise<ChildExit>;
}

export interface ChildOptions {
  /** Written to `<dir>/reference-config.json`; port and rosteringPort default to 0 (free ports). */
  config: ReferenceConfig;
  /** Where the config file goes (a new temp directory when absent). */
  dir?: string;
  /** V8 old-space limit of the child, so that unbounded memory growth ends in a crash. */
  heapMb?: number;
  /** How long start-up may take before it counts as hung (default 300 s: a guard against a hang, generous for a loaded machine, below the unit tests' ten-minute per-file timeout, so a hung start is reported with its output). */
  readyTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Run what `npm start` runs: its node flags and the compiled reference (`dist/`, `npm run build`), not the sources through tsx. */
  npmStart?: boolean;
}

/** The node arguments of package.json's `start` script (`node <flags> dist/reference/main.js`), without npm's wrapper. */
export function npmStartArgs(): string[] {
  const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [command, ...args] = script.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node: ${script}`);
  return args;
}

export async function startChildReference(opts: ChildOptions): Promise<ChildReference> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'reference-child-'));
  const configFile = join(dir, 'reference-config.json');
  writeFileSync(configFile, JSON.stringify({ port: 0, rosteringPort: 0, ...opts.config }, null, 2));
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  for (const name of OVERRIDING_VARIABLES) if (!opts.env || !(name in opts.env)) delete env[name];
  const heap = opts.heapMb ? [`--max-old-space-size=${opts.heapMb}`] : [];
  const args = [...(opts.npmStart ? [...heap, ...npmStartArgs()] : ['--import', 'tsx', ...heap, MAIN]), '--config', configFile];
  const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.setEncoding('utf8').on('data', (s: string) => { output += s; });
  proc.stderr.setEncoding('utf8').on('data', (s: string) => { output += s; });
  const child: Partial<ChildReference> & { exited: Promise<ChildExit> } = {
    exited: new Promise<ChildExit>((resolve) => proc.once('exit', (code, signal) => { child.exit = { code, signal }; resolve(child.exit); })),
  };
  const ready = await new Promise<{ data: string; rostering: string }>((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`the reference did not start within ${opts.readyTimeoutMs ?? 300_000} ms:\n${output}`)); }, opts.readyTimeoutMs ?? 300_000);
    const check = () => {
      const data = /^data API\s+(http:\/\/\S+)/m.exec(output)?.[1];
      const rostering = /^rostering\s+(http:\/\/[^/\s]+)/m.exec(output)?.[1];
      if (data && rostering) { clearTimeout(timer); proc.stdout.off('data', check); resolve({ data, rostering }); }
    };
    proc.stdout.on('data', check);
    void child.exited.then((e) => { clearTimeout(timer); reject(new Error(`the reference exited (${e.code ?? e.signal}) before it was ready:\n${output}`)); });
  });
  const pid = proc.pid!;
  return Object.assign(child, {
    pid,
    dataApiBaseUrl: ready.data,
    rosteringBaseUrl: ready.rostering,
    configFile,
    output: () => output,
    rssBytes: () => (child.exit ? undefined : readRss(pid)),
    kill: (signal: NodeJS.Signals) => { if (!child.exit) proc.kill(signal); },
    stop: async (graceMs = 30_000) => {
      if (child.exit) return child.exit;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      const e = await child.exited;
      clearTimeout(timer);
      return e;
    },
  }) as ChildReference;
}

function readRss(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
