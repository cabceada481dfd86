import { availableParallelism } from 'node:os';
import type { Target } from '../targets/types.js';

/**
 * How many Playwright workers a run uses when `--workers` does not say (the command line always
 * wins). A target file may name its own (`workers`). Otherwise a deployment on another host is
 * I/O bound: the workers mostly wait on the network, so four per core, at most eight (a
 * deployment 40 ms away: 188 s with one worker, 37 s with eight, on two cores). The embedded
 * reference and any deployment on this machine share its cores with the workers: half the
 * cores, but at least two, since a worker also waits on the deployment's answers (two cores:
 * one worker 3.6–4.0 min per configuration, two workers 2.1–2.4 min).
 */
export const REMOTE_WORKERS_MAX = 8;

export function defaultWorkers(target: Pick<Target, 'workers' | 'dataApi'>, embedded: boolean, cores = availableParallelism()): number {
  if (target.workers !== undefined) return target.workers;
  if (!embedded && !isLoopback(target.dataApi.baseUrl)) return Math.min(REMOTE_WORKERS_MAX, Math.max(2, 4 * cores));
  return Math.max(2, Math.floor(cores / 2));
}

/** Whether a URL names this machine (loopback address or localhost). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host) || host === '0.0.0.0';
}
