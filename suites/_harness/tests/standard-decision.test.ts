import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startInProcess } from '../../../tools/embedded/in-process.js';
import { JUDGED_STANDARD_ENV, judgedFor, judgedLine } from '../data-standard.js';
import { decideStandardOnce, findStandard } from '../standard-decision.js';
import { resolveTarget } from '../target.js';

/**
 * Where the run's judged standard is found, once, in Playwright's main process: the target
 * file's declaration, an embedded reference's configuration, else the deployment's discovery.
 */
let server: Server;
let base = '';
let dataModels: unknown[] = [];

before(async () => {
  server = createServer((_req, res) => { res.setHeader('Content-Type', 'application/json'); res.end(JSON.stringify({ version: '7.3', dataModels })); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v7.3/api`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const targetAt = (baseUrl: string, dataStandard?: '4.0' | '5.2' | '6.1') =>
  resolveTarget({ name: 't', dataApi: { baseUrl, ...(dataStandard ? { dataStandard } : {}) }, clients: { primary: { key: 'k', secret: 's' } } });

test('undeclared, the reference serving 6.1 is judged as 6.1 and serving 4.0 as 4.0, and the line the preflight prints says so', async () => {
  for (const v of ['6.1', '4.0'] as const) {
    const ref = await startInProcess({ dataStandard: v, naming: { profile: 'upstream' } });
    try {
      const found = await findStandard(targetAt(ref.dataApiBaseUrl), undefined);
      assert.equal(judgedFor(found), v);
      assert.equal(judgedLine(found), `data standard: ${v} (discovery's dataModels: Ed-Fi ${v}.0); judged by Data Standard ${v}`);
    } finally {
      await ref.close();
    }
  }
});

test('a declared standard wins over discovery, which is not asked', async () => {
  dataModels = [{ name: 'Ed-Fi', version: '6.1.0' }];
  const found = await findStandard(targetAt(base, '4.0'), undefined);
  assert.equal(judgedFor(found), '4.0');
  assert.match(found.from, /declared in the target file/);
});

test('undeclared, a 6.1 deployment is judged as 6.1 and a 4.0 one as 4.0, from discovery', async () => {
  for (const v of ['6.1', '4.0'] as const) {
    dataModels = [{ name: 'Ed-Fi', version: `${v}.0`, informationalVersion: `The Ed-Fi Data Model ${v}` }];
    const found = await findStandard(targetAt(base), undefined);
    assert.equal(judgedFor(found), v);
    assert.match(found.from, new RegExp(`discovery's dataModels: Ed-Fi ${v.replace('.', '\\.')}\\.0`));
  }
});

test('an embedded reference is judged by its configuration: its dataStandard, else the reference\'s default, 4.0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'standard-decision-'));
  const configured = join(dir, 'configured.json');
  const unset = join(dir, 'unset.json');
  writeFileSync(configured, JSON.stringify({ dataStandard: '6.1' }));
  writeFileSync(unset, JSON.stringify({}));
  // The embedded reference is not up when the configuration is read: no request is made.
  const nowhere = 'http://127.0.0.1:9/v7.3/api';
  assert.equal(judgedFor(await findStandard(targetAt(nowhere), configured)), '6.1');
  const unsetFound = await findStandard(targetAt(nowhere), unset);
  assert.equal(unsetFound.standard, '4.0', 'found, not fallen back to');
  assert.match(unsetFound.from, /sets none: the reference's default/);
});

test('a deployment that does not answer tells nothing, and the decision is made once for every process', async () => {
  const silent = await findStandard(targetAt('http://127.0.0.1:9/v7.3/api'), undefined);
  assert.equal(silent.standard, undefined);
  assert.equal(judgedFor(silent), '4.0', 'the seed\'s standard');
  delete process.env[JUDGED_STANDARD_ENV];
  try {
    dataModels = [{ name: 'Ed-Fi', version: '4.0.0' }];
    assert.equal(judgedFor(await decideStandardOnce(targetAt(base), undefined)), '4.0');
    // A worker inherits the main process's decision, whatever discovery says by then.
    dataModels = [{ name: 'Ed-Fi', version: '6.1.0' }];
    assert.equal(judgedFor(await decideStandardOnce(targetAt(base), undefined)), '4.0');
  } finally {
    delete process.env[JUDGED_STANDARD_ENV];
  }
});
