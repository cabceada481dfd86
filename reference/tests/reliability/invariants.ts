/**
 * Checks on a data store's referential state, shared by the concurrency and durability tests.
 * Not a test file itself.
 */
import { expandPaths } from '../../store/json-path.js';
import { naturalKey } from '../../store/keys.js';
import { findDescriptor, findReferenced } from '../../store/references.js';
import type { DataStore, StoredRecord } from '../../store/store.js';

/**
 * Every reference and descriptor value of every record names an existing record, and the
 * reverse index knows each such link (otherwise a DELETE of the target would be allowed and
 * leave the reference dangling) and no other; and each record is indexed under its document's
 * natural key. Returns one line per problem.
 */
export function referenceProblems(store: DataStore): string[] {
  const problems: string[] = [];
  for (const record of store.records()) {
    const resource = store.model.byName.get(record.resource)!;
    const known = (target: StoredRecord) => store.references.knows(record, target) && store.references.referringResources(target).includes(record.resource);
    const named = new Set<StoredRecord>();
    // A record is found by the key its document has (a stale key would make a second record of it).
    const key = naturalKey(resource, record.doc);
    if (record.key !== key || store.collection(record.resource).byKey.get(key) !== record) problems.push(`${record.resource} ${record.id}: indexed under key ${record.key}, its document's key is ${key}`);
    for (const ref of resource.references) {
      for (const at of expandPaths(record.doc, ref.path)) {
        if (!at.value || typeof at.value !== 'object') continue;
        const target = findReferenced(store.model, store, ref, at.value as Record<string, unknown>);
        if (target) named.add(target);
        if (!target) problems.push(`${record.resource} ${record.id}: ${at.path} names no ${ref.target} (${JSON.stringify(at.value)})`);
        else if (!known(target)) problems.push(`${record.resource} ${record.id}: ${at.path} references ${target.resource} ${target.id}, which the reverse index does not know (a DELETE of it would be allowed)`);
      }
    }
    for (const d of resource.descriptors) {
      for (const at of expandPaths(record.doc, d.path)) {
        if (typeof at.value !== 'string') continue;
        const target = findDescriptor(store.model, store, d.descriptor, at.value);
        if (target) named.add(target);
        if (!target) problems.push(`${record.resource} ${record.id}: ${at.path} names no ${d.descriptor} descriptor (${at.value})`);
        else if (!known(target)) problems.push(`${record.resource} ${record.id}: ${at.path} uses descriptor ${target.id}, which the reverse index does not know`);
      }
    }
    // A link the record does not have would refuse the DELETE of its target (409) for nothing.
    for (const target of store.references.targetsKnown(record)) {
      if (!named.has(target)) problems.push(`${record.resource} ${record.id}: the reverse index links it to ${target.resource} ${target.id}, which it does not name`);
    }
  }
  return problems;
}
