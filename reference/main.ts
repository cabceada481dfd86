/**
 * `npm start`: runs the reference on its in-memory default and prints where it listens and how
 * to get a token. Usage: tsx reference/main.ts [--config file.json]; REFERENCE_CONFIG works too.
 */
import { ConfigError } from './config/load.js';
import { startReference } from './server.js';

const argIndex = process.argv.indexOf('--config');
const configFile = argIndex > 0 ? process.argv[argIndex + 1] : process.env.REFERENCE_CONFIG;

try {
  const started = Date.now();
  const ref = await startReference(configFile ? { configFile } : {});
  const demo = ref.settings.generatedDemoSecret;
  console.log(`data API      ${ref.dataApiBaseUrl}  (ready in ${Date.now() - started} ms)`);
  console.log(`token         POST ${ref.dataApiBaseUrl}/oauth/token`);
  if (demo) {
    console.log(`demo client   key demo-client  secret ${demo}`);
    console.log(`try           curl -s -u demo-client:${demo} -d grant_type=client_credentials ${ref.dataApiBaseUrl}/oauth/token`);
  } else {
    console.log(`clients       ${ref.settings.clients.map((c) => c.key).join(', ')} (from ${configFile})`);
  }
  // Exit cleanly on SIGTERM/SIGINT so that coverage (c8) is written and sockets close.
  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    void ref.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
