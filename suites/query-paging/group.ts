import { target } from '../_harness/target.js';
import type { Builder } from '../_harness/builders.js';
import { unique } from '../_harness/fixtures.js';

/**
 * A group of `n` new academic-subject descriptors in a namespace of their own: a paging test's
 * query (`namespace=…`) then matches exactly what it created, whatever else the target holds.
 */
export async function descriptorGroup(data: Builder, n: number, prefix: string): Promise<{ query: string; ids: string[] }> {
  const namespace = `${target.testData.namespacePrefix}/${unique(prefix)}`;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await data.newDescriptor('academicSubject', { namespace })).id);
  return { query: `namespace=${encodeURIComponent(namespace)}`, ids };
}
