/**
 * `npm start` as an operator runs it (issue #25: "first answered request < 1,000 ms for
 * `npm start`, median of 5"): the node command line of package.json's `start` script (the
 * compiled reference, demo data loaded), spawned cold, timed from spawn to the ready line and to
 * the first answered request (discovery, polled every 2 ms from spawn). Once more through npm
 * itself, to show what its wrapper adds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { npmStartArgs, REPO_ROOT } from '../tools/child-reference.js';
import type { NpmStartFigures } from './types.js';
import { freePort } from '../tools/ports.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (n: number) => Math.round(n * 10) / 10;

/** Resolves with the status of a GET, or undefined when nothing listens yet. */
const probe = (port: number) => new Promise<number | undefined>((resolve) => {
  const req = request({ host: '127.0.0.1', port, path: '/v7.3/api/', agent: false }, (res) => { res.resume(); resolve(res.statusCode); });
  req.on('error', () => resolve(undefined));
  req.end();
});

interface Run { listeningMs: number; firstAnswerMs: number }

/** One cold start: spawn → the ready line, and spawn → the first answered request. */
async function once(command: string, args: string[], standard: string | undefined): Promise<Run> {
  const [port, rosteringPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { ...process.env, REFERENCE_PORT: String(port), ROSTERING_PORT: String(rosteringPort) };
  delete env.REFERENCE_CONFIG;
  const t0 = performance.now();
  const child: ChildProcess = spawn(command, [...args, ...(standard ? ['--data-standard', standard] : [])], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let ready: (ms: number) => void = () => {};
  const listening = new Promise<number>((resolve) => { ready = resolve; });
  child.stdout!.setEncoding('utf8').on('data', (s: string) => { output += s; if (/^data API/m.test(output)) ready(performance.now() - t0); });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => { output += s; });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}): ${output}`);
      if (performance.now() - t0 > 60_000) throw new Error(`npm start did not answer within 60 s: ${output}`);
      const status = await probe(port);
      if (status !== undefined) {
        if (status !== 200) throw new Error(`npm start answered discovery with ${status}`);
        const firstAnswerMs = performance.now() - t0;
        // The ready line is printed once the servers answer: it may reach us after the first answer.
        const listeningMs = await Promise.race([listening, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 10_000))]);
        if (Number.isNaN(listeningMs)) throw new Error(`npm start answered but printed no ready line: ${output}`);
        return { listeningMs: r1(listeningMs), firstAnswerMs: r1(firstAnswerMs) };
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL'); // the whole group: npm's shell and node with it
    await exited;
  }
}

export async function measureNpmStart(runs: number, standard: string | undefined): Promise<NpmStartFigures> {
  const args = npmStartArgs();
  const direct: Run[] = [];
  for (let i = 0; i < runs; i++) direct.push(await once(process.execPath, args, standard));
  const viaNpm = await once('npm', ['start', '--silent', '--'], standard).catch(() => undefined);
  return {
    command: `node ${args.join(' ')}${standard ? ` --data-standard ${standard}` : ''}`,
    runs,
    firstAnswerMs: direct.map((r) => r.firstAnswerMs),
    listeningMs: direct.map((r) => r.listeningMs),
    medianFirstAnswerMs: median(direct.map((r) => r.firstAnswerMs)),
    medianListeningMs: median(direct.map((r) => r.listeningMs)),
    ...(viaNpm ? { viaNpmFirstAnswerMs: viaNpm.firstAnswerMs } : {}),
  };
}
