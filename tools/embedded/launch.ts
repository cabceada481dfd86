/**
 * The embedded deployments started at once, as one webServer of playwright.config.ts. Playwright
 * starts its webServer entries one after another and polls each with a growing back-off: five
 * references took 9.5 s before the first test, ~2 s each, of which ~1.3 s was the start-up
 * itself. Started together they share the cores. Once every process answers its ready URL the
 * launcher writes READY_LINE on stdout, which the webServer entry waits for.
 *
 * Stopping: Playwright signals the whole process group (gracefulShutdown), so each process gets
 * the signal itself (c8 writes the reference's coverage then); the launcher waits for them all.
 * A process that exits on its own fails the launch, and stops the others.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LAUNCH_ENV, READY_LINE, type LaunchedProcess } from './launch-plan.js';

const POLL_MS = 50;

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 404;
  } catch {
    return false;
  }
}

async function readyOrExited(p: LaunchedProcess, child: ChildProcess): Promise<void> {
  while (child.exitCode === null && child.signalCode === null) {
    if (await answers(p.readyUrl)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function launch(plan: LaunchedProcess[]): Promise<void> {
  // Something already answering is another run's deployment, or another program: never test it.
  const taken = await Promise.all(plan.map((p) => answers(p.readyUrl)));
  const busy = plan.filter((_, i) => taken[i]).map((p) => p.readyUrl);
  if (busy.length) throw new Error(`already in use: ${busy.join(', ')} — stop what answers there, or give the target other ports`);
  let stopping = false;
  const running = new Set<ChildProcess>();
  // Each process takes a repeated signal calmly (reference/main.ts), so the launcher relays one
  // too: stopped on its own, it leaves nothing behind.
  const stopAll = () => { for (const c of running) c.kill('SIGTERM'); };
  const children = plan.map((p) => {
    const child = spawn(p.argv[0], p.argv.slice(1), { env: { ...process.env, ...p.env }, stdio: ['ignore', 'inherit', 'inherit'] });
    running.add(child);
    const gone = (what: string) => {
      if (!running.delete(child)) return;
      if (!stopping) {
        stopping = true;
        process.exitCode = 1;
        console.error(`embedded ${p.name} ${what}; stopping the others`);
        stopAll();
      }
      if (!running.size) process.exit();
    };
    child.on('exit', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    child.on('error', (err) => gone(`could not start (${err.message})`));
    return child;
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => { stopping = true; stopAll(); });
  await Promise.all(plan.map((p, i) => readyOrExited(p, children[i])));
  if (!stopping) process.stdout.write(`${READY_LINE}\n`);
}

await launch(JSON.parse(process.env[LAUNCH_ENV] ?? '[]') as LaunchedProcess[]).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
