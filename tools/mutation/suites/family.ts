/**
 * One suite family as a TAP test file for StrykerJS's tap runner (`npm run mutation -- --suites`):
 *
 *   node -r <stryker hook> --import tsx tools/mutation/suites/family.ts tools/mutation/suites/families/<family>.txt
 *
 * runs the Playwright tests of suites/<family> (the manifest, manifests.ts, names the family) against the embedded reference, on free ports of its own.
 * The reference's processes run the sandbox's instrumented code with the active mutant (they
 * inherit __STRYKER_ACTIVE_MUTANT__); the suites never import the reference, so the mutant is
 * only on the deployment's side. Prints one TAP result: ok when every test passed, not ok with
 * the first failure otherwise (Playwright stops there). In the dry run, what the reference's
 * processes executed becomes this file's coverage, so a mutant runs only the families reaching it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portBlocks } from '../../ports.js';
import { firstFailure, portTaken } from './outcome.js';

type Coverage = Record<string, number>;
interface MutantCoverage { static: Coverage; perTest: Record<string, Coverage> }

const manifest = process.argv[2];
if (!manifest?.endsWith('.txt')) throw new Error(`usage: family.ts tools/mutation/suites/families/<family>.txt (got ${manifest})`);
const family = `suites/${basename(manifest, '.txt')}`;
const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const exportCoverage = fileURLToPath(new URL('./export-coverage.cjs', import.meta.url));
/** An embedded reference takes its ports from REFERENCE_PORT up to 20 further (suites/_harness/target.ts). */
const EMBEDDED_PORTS = 20;
const freeBlock = portBlocks();

interface Outcome { passed: boolean; output: string }

/** One Playwright run of the family, its process group ended with it (or with this process). */
function runOnce(port: number, coverageDir: string, scratch: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [playwrightCli, 'test', family, '--reporter=dot', '--max-failures=1', `--output=${join(scratch, 'results')}`], {
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${exportCoverage}`.trim(),
        MUTATION_COVERAGE_DIR: coverageDir,
        REFERENCE_PORT: String(port),
        CONFORMANCE_REPORTS_DIR: join(scratch, 'reports'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d; });
    child.stderr.on('data', (d: Buffer) => { output += d; });
    const endGroup = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } };
    // Stryker ends a timed-out run by killing its worker, not this process: follow the parent.
    const parent = process.ppid;
    const orphaned = setInterval(() => { if (process.ppid !== parent) { endGroup(); process.exit(1); } }, 500);
    process.once('exit', endGroup);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(orphaned);
      process.removeListener('exit', endGroup);
      resolve({ passed: code === 0, output });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'mutation-family-'));
let outcome: Outcome | undefined;
try {
  // Another run may take the ports between the check and the reference's listen: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const coverageDir = mkdtempSync(join(scratch, 'coverage-'));
    outcome = await runOnce(await freeBlock(EMBEDDED_PORTS), coverageDir, scratch);
    if (!outcome.passed && portTaken(outcome.output)) continue;
    const merged: MutantCoverage = { static: {}, perTest: {} };
    for (const file of readdirSync(coverageDir)) {
      const one = JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as MutantCoverage;
      for (const counts of [one.static, ...Object.values(one.perTest ?? {})]) {
        for (const [id, n] of Object.entries(counts ?? {})) merged.static[id] = (merged.static[id] ?? 0) + n;
      }
    }
    // The tap runner's hook writes this process's Stryker global at exit, coverage included.
    const stryker = ((globalThis as Record<string, unknown>).__stryker__ ??= {}) as { mutantCoverage?: MutantCoverage };
    stryker.mutantCoverage = merged;
    break;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log('TAP version 13\n1..1');
// A run judged with another embedded configuration (TARGET, run.ts) says so in every result, so
// the mutant's recorded reason names the data standard that killed it.
const judged = process.env.TARGET ? `${family} on ${basename(process.env.TARGET)}` : family;
console.log(outcome?.passed ? `ok 1 - ${judged}` : `not ok 1 - ${judged}: ${firstFailure(outcome?.output ?? '')}`);
