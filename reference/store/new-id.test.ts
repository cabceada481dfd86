import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from './store.js';

/** Resource ids are GUIDs written as 32 lower-case hex digits (decisions #16a), random version 4 ones. */
test('ids are 32 lower-case hex digits of a version-4 GUID, distinct across pool refills', () => {
  const ids = Array.from({ length: 256 * 3 + 5 }, newId);
  for (const id of ids) assert.match(id, /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/, id);
  assert.equal(new Set(ids).size, ids.length);
  // Every hex digit shows up in the random positions (not a constant or a counter).
  const seen = new Set(ids.flatMap((id) => [...id.slice(0, 12)]));
  assert.equal(seen.size, 16);
});
