import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbiddenFor, leaks, related, type Attribution } from '../visibility.js';
import type { World } from '../world.js';

test('a token may see data of the organizations it names, their descendants and their ancestors, and no other', () => {
  assert.deepEqual([...related(['schoolB'])].sort(), ['lea1', 'schoolB', 'sea']);
  assert.deepEqual([...related(['lea1'])].sort(), ['lea1', 'schoolA', 'schoolB', 'sea']);
  assert.deepEqual([...related(['sea'])].sort(), ['lea1', 'lea2', 'schoolA', 'schoolB', 'schoolC', 'sea']);
  assert.deepEqual([...related(['schoolB', 'schoolC'])].sort(), ['lea1', 'lea2', 'schoolB', 'schoolC', 'sea']);
});

test('a leak is a forbidden mark a record holds as its own, or a forbidden record it is or names', () => {
  const marks = { sea: ['1'], lea1: ['11', 'M1'], lea2: ['12'], schoolA: ['101', 'st1'], schoolB: ['102', 'st2'], schoolC: ['103'], schoolD: ['104'] };
  const world = { marks } as unknown as World;
  const attributed: Attribution = new Map([['userA', ['schoolA']], ['courseM1', ['lea1']]]);
  const forbidden = forbiddenFor(world, ['schoolB'], { records: new Map(), attributed });
  const ok = [
    { sourcedId: 'userB', identifier: 'st2', roles: [{ org: { sourcedId: 'orgB', type: 'org' } }] },
    { sourcedId: 'courseM1', courseCode: 'M1', org: { sourcedId: 'lea1', type: 'org' } },
    // A district record naming a school it must not show, only by reference: no leak.
    { sourcedId: 'lea1', identifier: '11', children: [{ sourcedId: '101', type: 'org' }] },
  ];
  assert.deepEqual(leaks(ok, forbidden), []);
  assert.match(leaks([{ sourcedId: 'x', identifier: 'st1' }], forbidden)[0], /holds 'st1', written for schoolA/);
  assert.match(leaks([{ sourcedId: 'e', user: { sourcedId: 'userA', type: 'user' } }], forbidden)[0], /names userA, a record of schoolA/);
  assert.match(leaks([{ sourcedId: 'userA' }], forbidden)[0], /is a record of schoolA/);
});
