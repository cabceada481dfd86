/**
 * reports/bench.json: what `npm run bench` measures (schema generated from BenchReport into
 * spec/schemas/bench-report.schema.json). Rates are responses per second over the measured
 * window (warm-up excluded); latencies are client-side, in milliseconds, per response.
 */
export interface BenchReport {
  $schema?: string;
  /** @TJS-type integer */
  schemaVersion: number;
  /** ISO date-time of the end of the run. */
  generatedAt: string;
  /** `quick` (--quick: smaller record counts, shorter runs) or `full`. */
  mode: 'full' | 'quick';
  elapsedSeconds: number;
  manifest: BenchManifest;
  client: ClientSettings;
  /** Raw node:http and bare Koa answering the same payloads, measured in the same run. */
  baselines: Measurement[];
  /** Workloads against the reference (main data set, scale series, spec-size comparison). */
  workloads: WorkloadResult[];
  /** Workloads not run, with the reason. */
  skipped: SkippedWorkload[];
  scale: ScaleResult;
  startup: StartupResult;
  specSize: SpecSizeResult;
  /** The goals, evaluated (never assertions: the run succeeds either way). */
  targets: TargetCheck[];
  /** CPU profiles of the server child (only with --profile). */
  profiles: ProfileSummary[];
  /** Server CPU per request by stage of the request path (bench/stages.ts), per profiled workload; empty with --no-stages. */
  stages: { workload: string; budget: StageBudget }[];
  /** Load from other processes on the machine, and what the run did about it. */
  interference: InterferenceSummary;
  /** The complete certification through a latency proxy (only with --remote-latency). */
  remote?: RemoteCertification;
}

/** `npm run strength -- --remote-latency <ms>` as the bench ran it: every suite, default workers. */
export interface RemoteCertification {
  roundTripMs: number;
  /** The whole Playwright run through the proxy, set-up and teardown included. */
  seconds: number;
  verdict: string;
  /** @TJS-type integer */
  workers: number;
  /** The tool's last line, as printed. */
  line: string;
}

export interface InterferenceSummary {
  /** Above this CPU share of other processes (100 = one core) a window counts as disturbed. */
  noisyPercent: number;
  /** Time the run could spend waiting for quiet and re-measuring disturbed windows. */
  budgetMs: number;
  spentMs: number;
  /** Measurements whose kept window was still disturbed: treat their figures with caution. */
  disturbed: string[];
}

export interface BenchManifest {
  commit: string;
  /** Uncommitted changes in the working tree when the run started. */
  dirty: boolean;
  node: string;
  platform: string;
  arch: string;
  cpuModel: string;
  /** @TJS-type integer */
  cpuCount: number;
  totalMemoryBytes: number;
  /** Versions of the packages that shape the figures (autocannon, koa, openapi-backend, ajv, jose). */
  packages: { [name: string]: string };
}

export interface ClientSettings {
  tool: string;
  toolVersion: string;
  /** @TJS-type integer */
  connections: number;
  /** @TJS-type integer */
  pipelining: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Always 127.0.0.1. */
  host: string;
  /** Load generator and every server run in separate child processes. */
  separateProcesses: boolean;
  /** How the server and load-generator processes were placed on CPUs. */
  cpuPinning: string;
}

export type ServerKind = 'raw' | 'koa' | 'reference' | 'custom-full' | 'custom-trimmed';

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export interface Measurement {
  /** Stable id, e.g. `get-by-id`, `scale-query-1000000`, `raw-get-item`. */
  id: string;
  label: string;
  server: ServerKind;
  method: string;
  /** One example request path. */
  pathExample: string;
  /** @TJS-type integer */
  requests: number;
  durationSeconds: number;
  rps: number;
  latencyMs: LatencySummary;
  /** Responses by status code. */
  statusCounts: { [status: string]: number };
  /**
   * Responses with a status the workload does not expect (a workload with any is suspect).
   * @TJS-type integer
   */
  unexpected: number;
  /** @TJS-type integer */
  errors: number;
  /** @TJS-type integer */
  timeouts: number;
  bytesPerResponse: number;
  /** CPU of the load-generator process over the window; near 100 means client-bound. */
  driverCpuPercent: number;
  /** CPU of the server process over the window (100 = one core). */
  serverCpuPercent: number;
  /** Server CPU time (user + system) per response. */
  serverCpuMicrosPerRequest: number;
  /**
   * CPU used by other processes on the machine during the window (machine busy − server −
   * load generator, 100 = one core; Linux only). Above ~20 the figures are disturbed.
   */
  otherCpuPercent?: number;
  /**
   * Measured windows taken (a window disturbed by other processes is retried while the run's
   * retry budget lasts; the least disturbed one is kept).
   * @TJS-type integer
   */
  attempts: number;
}

export interface WorkloadResult extends Measurement {
  group: 'main' | 'scale' | 'spec';
  /** Stored studentSchoolAssociation records when the window started. */
  records: number;
  /** Id of the raw node:http baseline this workload is compared with. */
  baseline: string;
  baselineRps: number;
  /** rps / baseline rps. */
  ratioToRaw: number;
  /** Id of the bare-Koa baseline, when one answers the same payload. */
  koaBaseline?: string;
  ratioToKoa?: number;
  /** 10^6 / rps − 10^6 / baseline rps: microseconds each request costs over raw node:http. */
  addedMicrosPerRequest: number;
  /**
   * Baseline server CPU per request ÷ this workload's: the throughput ratio if the server were
   * the only limit (the raw baselines are often client-bound on two cores).
   */
  cpuRatioToRaw?: number;
  /** Server CPU microseconds per request over the baseline's. */
  addedServerCpuMicrosPerRequest?: number;
  notes?: string[];
}

export interface SkippedWorkload {
  id: string;
  label: string;
  reason: string;
}

export interface ScalePoint {
  /** @TJS-type integer */
  records: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMicros: number;
  /** The window was disturbed by other processes. */
  disturbed: boolean;
}

export interface ScaleSeries {
  /** `get-by-id`, `upsert-new` or `query`. */
  workload: string;
  points: ScalePoint[];
  /** rps at the smallest size / rps at the largest (1 = no slowdown). */
  slowdownLargestVsSmallest: number;
  /** Server CPU per request at the largest size / at the smallest. */
  cpuSlowdownLargestVsSmallest: number;
}

export interface MemoryPoint {
  /** @TJS-type integer */
  records: number;
  heapUsedBytes: number;
  rssBytes: number;
}

export interface ScaleResult {
  /** Sizes measured (the planned ones unless the time budget reduced the largest). */
  sizes: number[];
  plannedSizes: number[];
  /** Why a size was reduced or skipped. */
  notes?: string[];
  series: ScaleSeries[];
  memory: MemoryPoint[];
  /** (heapUsed at the largest size − heapUsed with no associations) / records. */
  heapBytesPerRecord: number;
  /** Wall time to preload each size through DataStore (cumulative top-ups). */
  preloadMs: number[];
}

export interface StartupFigures {
  server: ServerKind;
  /**
   * Resources of the model served (descriptors included).
   * @TJS-type integer
   */
  resources: number;
  /** @TJS-type integer */
  operations: number;
  /** From fork() in the orchestrator to the child answering "listening" (includes Node and tsx boot). */
  spawnToReadyMs: number;
  /** From the child process's start (performance time origin) to listening. */
  processUptimeAtReadyMs: number;
  /** Importing and compiling the model (spec/model/index.ts). */
  modelImportMs: number;
  /** Importing the reference modules (server, Koa, openapi-backend, ajv). */
  otherImportsMs: number;
  /** startReference() (or the bench's custom starter) until listening. */
  startReferenceMs: number;
  /** First GET by id after ready, client-side. */
  firstGetMs?: number;
  /** First validated POST after ready, client-side (validator compiled on demand or warmed). */
  firstPostMs?: number;
}

export interface StartupResult {
  reference: StartupFigures;
  others: StartupFigures[];
  /** `npm start` as an operator runs it, cold, several times (bench/npm-start.ts); absent when the phase did not run. */
  npmStart?: NpmStartFigures;
}

/** Cold starts of package.json's `start` command line (the compiled reference, demo data loaded). */
export interface NpmStartFigures {
  /** The node command line run (npm's wrapper left out). */
  command: string;
  /** @TJS-type integer */
  runs: number;
  /** Spawn → the ready line ("data API …"), per run. */
  listeningMs: number[];
  /** Spawn → the first answered request (discovery, polled every 2 ms from spawn), per run. */
  firstAnswerMs: number[];
  medianListeningMs: number;
  medianFirstAnswerMs: number;
  /** One more start through `npm start` itself: what npm's wrapper adds. */
  viaNpmFirstAnswerMs?: number;
}

export interface SpecSizeSide {
  server: ServerKind;
  /** @TJS-type integer */
  resources: number;
  /** @TJS-type integer */
  operations: number;
  getByIdRps: number;
  upsertRps: number;
  /** Server CPU per request, mean of the rounds. */
  getByIdCpuMicros: number;
  upsertCpuMicros: number;
}

export interface SpecSizeResult {
  /** Resource names of the trimmed model. */
  trimmedResources: string[];
  full: SpecSizeSide;
  trimmed: SpecSizeSide;
  /** full rps / trimmed rps. */
  getByIdRatio: number;
  upsertRatio: number;
  /** trimmed server CPU per request / full (1 = the spec size costs nothing per request). */
  getByIdCpuRatio: number;
  upsertCpuRatio: number;
  /** Why the comparison uses the bench's own starter rather than startReference(). */
  note: string;
}

export interface TargetCheck {
  id: string;
  description: string;
  /** Human-readable goal, e.g. `≥ 0.35`. */
  goal: string;
  value: number | null;
  met: boolean | null;
  note?: string;
}

export interface ProfileEntry {
  functionName: string;
  /** Package name or project file, with line. */
  location: string;
  selfMs: number;
  selfPercentOfBusy: number;
  inclusiveMs: number;
  /** The caller that accounts for most of the self time. */
  topCaller?: string;
  /** Source lines holding most of the self time, with their share. */
  hotLines?: string;
}

export interface ProfileModuleEntry {
  module: string;
  selfMs: number;
  selfPercentOfBusy: number;
}

/** One workload's server CPU per request, split by stage from a profiled pass (bench/stages.ts). */
export interface StageBudget {
  /** Server CPU per request in the unprofiled measured window. */
  cpuMicrosPerRequest: number;
  /** µs per request by stage; they add up to cpuMicrosPerRequest (to rounding). */
  micros: { [stage: string]: number };
}

export interface ProfileSummary {
  workload: string;
  /** The .cpuprofile written (open in Chrome DevTools or summarise with bench/profile-summary.ts). */
  file: string;
  durationMs: number;
  /** Sampled time minus idle. */
  busyMs: number;
  top: ProfileEntry[];
  byModule: ProfileModuleEntry[];
}
