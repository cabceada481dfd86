import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Request/reply over the IPC channel of a forked child: the orchestrator sends `{ id, cmd, ... }`,
 * the child answers `{ id, ok, result | error }`. Children are TypeScript files run with tsx.
 */
export interface Reply { id: number; ok: boolean; result?: unknown; error?: string }

export class Child {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly proc: ChildProcess;
  readonly spawnedAt = performance.now();
  private exited = false;

  constructor(readonly name: string, file: string, private readonly opts: { args?: string[]; execArgv?: string[]; env?: NodeJS.ProcessEnv; cpu?: number } = {}) {
    const path = fileURLToPath(new URL(file, import.meta.url));
    const env = { ...process.env, ...(opts.env ?? {}) };
    // Never let a caller's environment place the reference on a fixed port.
    delete env.REFERENCE_PORT;
    this.proc = fork(path, opts.args ?? [], {
      execArgv: ['--import', 'tsx', ...(opts.execArgv ?? [])],
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc.on('message', (m: Reply) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(`${this.name}: ${m.error}`));
    });
    this.pin();
    this.proc.on('exit', (code, signal) => {
      this.exited = true;
      for (const w of this.waiting.values()) w.reject(new Error(`${this.name} exited (code ${code}, signal ${signal})`));
      this.waiting.clear();
    });
  }

  /**
   * Pins every thread of the child to its CPU (taskset -a -p). Without it the kernel's
   * wake-affine scheduling often puts a loopback client and server on the same core of a 2-core
   * machine, halving and destabilising every figure. Call again once the child has started its
   * threads; threads created later inherit the affinity.
   */
  pin(): boolean {
    if (this.opts.cpu === undefined || this.exited || !this.proc.pid) return false;
    return pinPid(this.proc.pid, this.opts.cpu);
  }

  request<T>(cmd: string, payload: Record<string, unknown> = {}): Promise<T> {
    if (this.exited) return Promise.reject(new Error(`${this.name} has exited`));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.proc.send({ id, cmd, ...payload });
    });
  }

  /** Asks the child to exit, then kills it (by its own pid) if it has not after a grace period. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.request('stop').catch(() => undefined);
    const timer = setTimeout(() => { if (!this.exited) this.proc.kill('SIGKILL'); }, 5000);
    await gone;
    clearTimeout(timer);
  }
}

/** Child side: serve commands from the parent with the given handlers. */
export function serve(handlers: Record<string, (msg: Record<string, unknown>) => unknown>): void {
  process.on('message', (msg: Record<string, unknown> & { id: number; cmd: string }) => {
    void (async () => {
      try {
        if (msg.cmd === 'stop') {
          process.send!({ id: msg.id, ok: true, result: null });
          await handlers.stop?.(msg);
          setTimeout(() => process.exit(0), 20);
          return;
        }
        const h = handlers[msg.cmd];
        if (!h) throw new Error(`unknown command ${msg.cmd}`);
        const result = await h(msg);
        process.send!({ id: msg.id, ok: true, result: result ?? null });
      } catch (err) {
        process.send!({ id: msg.id, ok: false, error: (err as Error).stack ?? String(err) });
      }
    })();
  });
  // The parent is gone: do not linger.
  process.on('disconnect', () => process.exit(0));
}

/** Whether pinning is possible here: taskset present and at least two CPUs. */
export const canPin = (): boolean => cpus().length >= 2 && pinPid(process.pid, undefined);

function pinPid(pid: number, cpu: number | undefined): boolean {
  try {
    if (cpu === undefined) execFileSync('taskset', ['-p', String(pid)], { stdio: 'ignore' });
    else execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
