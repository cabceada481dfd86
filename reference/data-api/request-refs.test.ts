import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefResolver } from './request-refs.js';

const root = {
  components: {
    schemas: {
      Ref: { type: 'object', properties: { id: { type: 'string', maxLength: 5 } } },
      Outer: { type: 'object', properties: { ref: { $ref: '#/components/schemas/Ref' }, list: { type: 'array', items: { $ref: '#/components/schemas/Ref' } } } },
      'a/b': { type: 'integer' },
      Loop: { type: 'object', properties: { next: { $ref: '#/components/schemas/Loop' } } },
    },
  },
};

test('references are replaced by what they name, nested ones too, and the document keeps its references', () => {
  const before = structuredClone(root);
  const resolver = new RefResolver(root);
  const body = resolver.resolve({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Outer' } } } });
  const ref = { type: 'object', properties: { id: { type: 'string', maxLength: 5 } } };
  assert.deepEqual(body, { content: { 'application/json': { schema: { type: 'object', properties: { ref, list: { type: 'array', items: ref } } } } } });
  assert.deepEqual(root, before);
});

test('a reference is resolved once and shared; escaped pointer segments are read', () => {
  const resolver = new RefResolver(root);
  const [a, b] = resolver.resolve([{ $ref: '#/components/schemas/Ref' }, { $ref: '#/components/schemas/Ref' }]);
  assert.equal(a, b);
  assert.deepEqual(resolver.resolve({ $ref: '#/components/schemas/a~1b' }), { type: 'integer' });
});

test('a recursive, dangling or external reference is an error naming it', () => {
  const resolver = new RefResolver(root);
  assert.throws(() => resolver.resolve({ $ref: '#/components/schemas/Loop' }), /recursive \$ref #\/components\/schemas\/Loop/);
  assert.throws(() => resolver.resolve({ $ref: '#/components/schemas/Nope' }), /names nothing/);
  assert.throws(() => resolver.resolve({ $ref: 'other.json#/x' }), /only references within the document/);
});
