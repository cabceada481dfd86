/**
 * The load generator, in its own child process (so the server's event loop never shares a
 * process with autocannon). One command: run a scenario against a URL for a bounded duration and
 * answer the measurements. Scenario state (new-key counters, ETags followed by PUT) is kept per
 * scenario id, so a warm-up and the measured run that follows continue the same sequence.
 */
import autocannon from 'autocannon';
import { serve } from './ipc.js';
import { buildScenario, type Scenario, type ScenarioSpec } from './scenarios.js';

export interface DriverRun {
  requests: number;
  durationSeconds: number;
  rps: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  statusCounts: Record<string, number>;
  unexpected: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  driverCpuPercent: number;
}

const scenarios = new Map<string, { scenario: Scenario; expect: Set<number> }>();

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function run(msg: Record<string, unknown>): Promise<DriverRun> {
  const id = String(msg.scenarioId);
  // The spec is sent with a scenario's first run only (it can be large: thousands of tokens).
  let entry = scenarios.get(id);
  if (!entry) {
    if (!msg.spec) throw new Error(`scenario ${id} unknown and no spec sent`);
    const spec = msg.spec as ScenarioSpec;
    scenarios.set(id, (entry = { scenario: buildScenario(spec), expect: new Set(spec.expect) }));
  }
  const { scenario, expect } = entry;

  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let bytes = 0;
  const statusCounts: Record<string, number> = {};
  let unexpected = 0;

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: String(msg.url),
      connections: Number(msg.connections),
      pipelining: 1,
      duration: Number(msg.durationSeconds),
      // autocannon checks its stop flag on each sample tick: 100 ms ticks end the window within
      // 0.1 s of its duration (the default 1 s tick rounds every window up to whole seconds).
      sampleInt: 100,
      timeout: 30,
      requests: [{ setupRequest: scenario.setupRequest, ...(scenario.onResponse ? { onResponse: scenario.onResponse } : {}) }] as unknown as autocannon.Request[],
    }, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
      if (n === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[n++] = responseTime;
      bytes += resBytes;
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
      if (!expect.has(statusCode)) unexpected++;
    });
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const sorted = latencies.subarray(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  return {
    requests: n,
    durationSeconds: wall,
    rps: n / wall,
    latencyMs: { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), mean: n ? sum / n : 0, max: n ? sorted[n - 1] : 0 },
    statusCounts,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: n ? bytes / n : 0,
    driverCpuPercent: ((cpu.user + cpu.system) / 1e6 / wall) * 100,
  };
}

serve({ run });
