import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from '@playwright/test';
import { startForTest } from '../../../reference/tests/helpers.js';
import { preflight } from '../preflight.js';
import type { ResolvedTarget } from '../target.js';

/** The preflight names a wrong namespace segment and a namespace prefix the client does not own, and passes a fitting target. */
test('preflight: a wrong namespace segment and a foreign namespace prefix are named; a fitting target passes', async () => {
  const ref = await startForTest({ clients: [{ key: 'test', secret: 'test-secret', permissionSet: 'namespace-based', namespacePrefixes: ['uri://mine.test'] }] });
  const ctx = await request.newContext();
  try {
    const targetWith = (segment: string, prefix: string) => ({
      dataApi: { baseUrl: ref.dataApiBaseUrl, namespaceSegment: segment },
      dataRoot: `${ref.dataApiBaseUrl}/data/v3/${segment}`,
      testData: { namespacePrefix: prefix },
    }) as unknown as ResolvedTarget;
    const wrong = await preflight(ctx, targetWith('ed-fi', 'uri://yours.test'), ref.token);
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.match(wrong[0], /namespaceSegment 'ed-fi'/);
    assert.match(wrong[1], /uri:\/\/yours\.test.*uri:\/\/mine\.test/);
    assert.deepEqual(await preflight(ctx, targetWith('core', 'uri://mine.test/conformance'), ref.token), []);
  } finally {
    await ctx.dispose();
    await ref.close();
  }
});
