import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { staleCompiledFile } from './build-freshness.js';

/** A repository root with sources and their compiled files, each at the given time (seconds). */
function tree(files: Record<string, number>): string {
  const root = `${mkdtempSync(join(tmpdir(), 'freshness-'))}/`;
  for (const [path, seconds] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  }
  return root;
}

test('compiled files newer than their sources are fresh; a compiled file without a source is not judged', () => {
  const root = tree({ 'reference/a.ts': 100, 'dist/reference/a.js': 200, 'spec/s.json': 100, 'dist/spec/s.json': 200, 'dist/reference/gone.js': 50 });
  try { assert.equal(staleCompiledFile(root), undefined); } finally { rmSync(root, { recursive: true }); }
});

test('a source changed after the build is named, whether compiled to JavaScript or copied (imported JSON)', () => {
  for (const [changed, files] of [
    ['reference/http/a.ts', { 'reference/http/a.ts': 300, 'dist/reference/http/a.js': 200 }],
    ['spec/s.json', { 'spec/s.json': 300, 'dist/spec/s.json': 200 }],
  ] as const) {
    const root = tree({ 'reference/b.ts': 100, 'dist/reference/b.js': 200, ...files });
    try { assert.equal(staleCompiledFile(root), changed); } finally { rmSync(root, { recursive: true }); }
  }
});
