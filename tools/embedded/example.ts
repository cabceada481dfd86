/**
 * `npm run example -- <dir>`: the embedded deployments written out as files a vendor can read,
 * copy and run (issue #24 point 4: "a documented, runnable example of a complete rostering
 * deployment"). The same function that playwright.config.ts and the strength tool start
 * (embeddedDeployments) describes every process; this writes, into <dir>:
 *
 * - `start.sh`: starts each process (the reference with the single flow's rostering service, the
 *   context, multi-tenant and multi-tenant-with-context flows, the lowered-page-size deployment)
 *   with exactly the environment it gets in a conformance run, the seed's variables spelt out;
 * - `admin-databases/`: the routing flows' admin databases (plain and encrypted connection strings);
 * - `keys/`: the issuer's and the test issuer's private keys, made for this example;
 * - `target.json`: the complete target file describing all of it (reference.json's, its key files
 *   relative to itself), and `conformance-env.sh`: the variables the target names;
 * - `README.md`: how to run it and certify it.
 *
 * Then `sh <dir>/start.sh` and, in another shell, `. <dir>/conformance-env.sh && TARGET=<dir>/target.json
 * npx playwright test` reach the complete verdict the embedded run reaches, as a vendor's run does.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Target } from '../../suites/targets/types.js';
import { embeddedDeployments } from './deployments.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = 'reference/config/conformance.json';

/** A value as one single-quoted shell word. */
const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
const newKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export function writeExample(dir: string): string[] {
  const out = resolve(dir);
  mkdirSync(join(out, 'keys'), { recursive: true });
  const target = JSON.parse(readFileSync(join(root, 'suites/targets/reference.json'), 'utf8')) as Target;
  const flows = target.rostering!.flows!;
  const issuerPem = newKey();
  const testIssuerPem = newKey();
  const adminSecret = randomBytes(24).toString('base64url');
  const { processes, flows: built } = embeddedDeployments({
    configFile: CONFIG,
    dataApiBaseUrl: target.dataApi.baseUrl,
    rosteringOrigin: target.rostering!.baseUrl!.replace(/\/$/, ''),
    flows: { context: flows.context!, tenant: flows.tenant!, tenantContext: flows.tenantContext! },
    ...(flows.single?.secretsEnv ? { secretsEnv: flows.single.secretsEnv } : {}),
    ...(target.capabilities?.loweredPageSize ? { lowered: target.capabilities.loweredPageSize } : {}),
    privateKeyPem: issuerPem,
    testIssuerPrivateKeyPem: testIssuerPem,
    adminSecret,
  });
  writeFileSync(join(out, 'keys/issuer.pem'), issuerPem);
  writeFileSync(join(out, 'keys/test-issuer.pem'), testIssuerPem);

  // The admin databases were written to a temporary folder: copied here, and the variables naming them follow.
  const tmp = /file:(\/[^"]*?)\/[^/"]+\.json/.exec(JSON.stringify(processes.map((p) => p.env)))?.[1];
  if (tmp) cpSync(tmp, join(out, 'admin-databases'), { recursive: true });
  const here = (v: string) => (tmp ? v.split(tmp).join('$EXAMPLE/admin-databases') : v);

  const lines = ['#!/bin/sh', '# The embedded conformance deployments, each with the environment a conformance run gives it (npm run example).',
    '# Run from anywhere; stop with Ctrl-C.', 'EXAMPLE=$(cd "$(dirname "$0")" && pwd)', `cd ${quote(root)}`, 'trap "kill 0" INT TERM EXIT'];
  for (const p of processes) {
    lines.push('', `# ${p.name}: ready when ${p.readyUrl} answers 200`);
    // Double quotes where the value names the example's folder, so $EXAMPLE expands there.
    const env = Object.entries(p.env).map(([k, v]) => (v === issuerPem ? `${k}="$(cat "$EXAMPLE/keys/issuer.pem")"`
      : v === testIssuerPem ? `${k}="$(cat "$EXAMPLE/keys/test-issuer.pem")"`
        : here(v) !== v ? `${k}="${here(v).replace(/(["\\`])/g, '\\$1')}"` : `${k}=${quote(v)}`));
    lines.push(`env ${env.join(' \\\n  ')} \\\n  node ${p.args.join(' ')} &`);
  }
  lines.push('', 'wait');
  writeFileSync(join(out, 'start.sh'), `${lines.join('\n')}\n`, { mode: 0o755 });

  // The target: reference.json's, with the issuer's key read from the example's file.
  const schema = target.$schema ? relative(out, resolve(join(root, 'suites/targets'), target.$schema)) : undefined;
  const written: Target = {
    ...target,
    ...(schema ? { $schema: schema } : {}),
    name: 'embedded-example',
    capabilities: {
      ...target.capabilities,
      ...(target.capabilities?.issuerSigningKey ? { issuerSigningKey: { pemFile: 'keys/issuer.pem' } } : {}),
      ...(target.capabilities?.testIssuer ? { testIssuer: { pemFile: 'keys/test-issuer.pem' } } : {}),
    },
  };
  writeFileSync(join(out, 'target.json'), `${JSON.stringify(written, null, 2)}\n`);
  const env: Record<string, string> = {
    CONFORMANCE_ADMIN_SECRET: adminSecret,
    CONFORMANCE_ISSUER_PUBLIC_KEY_PEM: built.issuerPublicKeyPem,
    ...(flows.single?.secretsEnv ? { [flows.single.secretsEnv]: built.secrets.join('\n') } : {}),
  };
  writeFileSync(join(out, 'conformance-env.sh'), `# The variables the example's target.json names (source it: . ${relative(process.cwd(), join(out, 'conformance-env.sh'))}).\n${Object.entries(env).map(([k, v]) => `export ${k}=${quote(v)}`).join('\n')}\n`);
  writeFileSync(join(out, 'README.md'), readme(out));
  return ['start.sh', 'conformance-env.sh', 'target.json', 'keys/issuer.pem', 'keys/test-issuer.pem', ...(tmp ? ['admin-databases/'] : []), 'README.md'];
}

function readme(out: string): string {
  const rel = relative(root, out) || '.';
  return `# The embedded conformance deployments, as files

Written by \`npm run example -- ${rel}\`: every process a complete conformance run starts, with the
environment it gets, so that a complete rostering deployment can be read and copied.

- \`start.sh\` starts them: the reference (data API and the single flow's rostering service),
  the context, multi-tenant and multi-tenant-with-context routing flows (each a data API and a
  rostering service configured only by the seed's variables: \`OAUTH2_*\`, \`CONNECTION_CONFIG\`,
  \`TENANTS_CONNECTION_CONFIG\`, \`MULTITENANCY_ENABLED\`, \`ODS_CONTEXT_ROUTE_TEMPLATE\`,
  \`ODS_CONNECTION_STRING_ENCRYPTION_KEY\`), and a data API whose host lowered the page size.
- \`admin-databases/\`: each flow's admin database: its ODS instances, connection strings plain
  and encrypted (some broken on purpose: tampered, another key, an unknown scheme), contexts.
- \`keys/\`: the issuer's key (the reference signs tokens with it; the suites sign expired and
  foreign tokens with it: capability \`issuerSigningKey\`) and the suites' own test issuer's key,
  which every rostering service trusts besides (\`ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM\`).
- \`target.json\` describes all of it to the suites (\`rostering.flows\`, \`clients\`,
  \`rostering.organizations\`, capabilities); \`conformance-env.sh\` sets the variables it names.

Run it, then certify it as a vendor would:

\`\`\`sh
sh ${rel}/start.sh                       # ready when the last process answers; Ctrl-C stops all
. ${rel}/conformance-env.sh && TARGET=${rel}/target.json npx playwright test
\`\`\`

The ports are the embedded run's (18080–18088): stop an embedded run first.
`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: npm run example -- <directory>');
    process.exit(2);
  }
  const files = writeExample(dir);
  console.log(`wrote ${files.map((f) => join(dir, f)).join(', ')}; see ${join(dir, 'README.md')}`);
}

