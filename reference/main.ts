/**
 * `npm start`: runs the reference on its in-memory default (with the demo data set) and prints
 * where it listens and how to get a token. `npm start` runs this module compiled
 * (`node dist/reference/main.js`, built by `npm run build`, which `npm ci` runs); the unit tests
 * and tools run it from source (`node --import tsx reference/main.ts`), and the embedded
 * deployments compiled while the build is fresh (tools/embedded/deployments.ts).
 * Usage: npm start -- [--config file.json | --empty] [--data-standard 4.0|5.2|6.1] [--recover]
 * (`--name value` or `--name=value`); REFERENCE_CONFIG works too.
 * --data-standard: the data standard served (the configuration's `dataStandard`, which it overrides).
 * --recover: start even if a durable store's journal is damaged, dropping (and counting) the bad records.
 */
// First: keeps nextTick on its fast path before any full collection (see tick-shape.ts).
import './http/tick-shape.js';
import { parseArgs } from 'node:util';
import type { ReferenceConfig } from './config/types.js';
import { ConfigError } from './config/load.js';
import { ConfigurationError } from './config/configuration-error.js';
import { RosteringConfigError } from './rostering/service.js';
import { StoreFileError } from './store/persistence.js';
import { startReference } from './server.js';
import { staleCompiledFile } from './build-freshness.js';
import { COMPILED } from '../spec/repo-files.js';

const USAGE = 'npm start -- [--config file.json | --empty] [--data-standard 4.0|5.2|6.1] [--recover]';

/**
 * The options, `--name value` and `--name=value` alike. Anything else stops start-up (exit 2):
 * a misspelt or unknown option ignored would serve something other than what was asked for.
 */
function readArgs(): { config?: string; empty?: boolean; 'data-standard'?: string; recover?: boolean } {
  try {
    return parseArgs({ options: { config: { type: 'string' }, empty: { type: 'boolean' }, 'data-standard': { type: 'string' }, recover: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    console.error(`${String((err as Error).message).split('\n')[0]}; usage: ${USAGE}`);
    process.exit(2);
  }
}

// Compiled code older than its source would serve what the repository no longer says.
const stale = COMPILED ? staleCompiledFile() : undefined;
if (stale) {
  console.error(`the compiled reference (dist/) is older than ${stale}: run npm run build (npm ci runs it)`);
  process.exit(2);
}

const args = readArgs();
const configFile = args.config ?? process.env.REFERENCE_CONFIG;
// Without a configuration file the demo data set is loaded, unless --empty is given.
const demoData = !configFile && !args.empty;
const recover = args.recover ? { recoverJournal: true } : {};
// An unknown standard is refused by the configuration check, which says which are known.
const standard = args['data-standard'] !== undefined ? { dataStandard: args['data-standard'] as ReferenceConfig['dataStandard'] } : {};
const overrides = { ...recover, ...standard };

try {
  const started = Date.now();
  const ref = await startReference(configFile ? { configFile, overrides } : { overrides: { demoData, ...overrides } });
  // Exit cleanly on SIGTERM/SIGINT so that coverage (c8) is written, durable stores are
  // compacted and sockets close. A signal sent to the whole process group arrives more than once
  // (directly and relayed by wrappers such as c8): later ones must not kill the process early.
  // Listening before the ready lines are printed: a supervisor may signal as soon as it reads
  // them, and a signal without a listener kills the process outright (no compaction).
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    // Durable stores report their own failures (the journals keep every write); anything else
    // that fails while closing is one line too, never a stack.
    ref.close().then(() => process.exit(0), (err: unknown) => {
      console.error(`${signal}: stopping failed: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
      process.exit(1);
    });
    setTimeout(() => process.exit(0), 4000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const demo = ref.settings.generatedDemoSecret;
  console.log(`data API      ${ref.dataApiBaseUrl}  (ready in ${Date.now() - started} ms, Data Standard ${ref.served.standard}${demoData ? ', demo data loaded' : ''})`);
  console.log(`token         POST ${ref.dataApiBaseUrl}/oauth/token`);
  // An endpoint, not the bare prefix: the prefix alone names no resource and answers 404. The
  // line starts `rostering <origin>` (tools/child-reference.ts reads the origin from it).
  console.log(`rostering     ${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs  (GET, as the other OneRoster collections beside it; bearer tokens from the token endpoint)`);
  if (demo) {
    console.log(`demo client   key demo-client  secret ${demo}`);
    console.log(`try           curl -s -u demo-client:${demo} -d grant_type=client_credentials ${ref.dataApiBaseUrl}/oauth/token`);
  } else {
    console.log(`clients       ${ref.settings.clients.map((c) => c.key).join(', ')} (from ${configFile})`);
  }
} catch (err) {
  // The operator's to fix (a setting, a store file): one line naming what, never a stack.
  if (err instanceof ConfigError || err instanceof ConfigurationError || err instanceof RosteringConfigError || err instanceof StoreFileError) {
    console.error(err.message);
    process.exit(2);
  }
  // A busy port is an operator's matter: one line saying which, not a stack trace.
  const listenError = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (listenError.code === 'EADDRINUSE' || listenError.code === 'EACCES') {
    console.error(`cannot listen on ${listenError.address ?? ''}:${listenError.port ?? ''} (${listenError.code === 'EADDRINUSE' ? 'in use' : 'not permitted'}): choose other ports with REFERENCE_PORT and ROSTERING_PORT, or port and rosteringPort in the configuration`);
    process.exit(2);
  }
  // Anything else is the reference's own failure: still one line (issue 23 point 5), the stack on request.
  if (process.env.REFERENCE_DEBUG) throw err;
  console.error(`the reference could not start: ${String((err as Error)?.message ?? err).split('\n')[0]} (REFERENCE_DEBUG=1 shows the stack)`);
  process.exit(1);
}
