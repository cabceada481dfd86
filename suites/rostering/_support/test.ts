import { needs } from '../../_harness/capabilities.js';
import { test as base, expect, target } from '../../_harness/fixtures.js';
import { WORLD_FIELDS, rosteringRun, unlessHeld } from './setup.js';
import type { World } from './world.js';

/**
 * The rostering suites' `test`: the harness fixtures plus `world`, the core data of world.ts,
 * written once per run by the global setup (setup.ts) with the organization ids the target
 * reserves (rostering.organizations), which the declared clients' claims name. Tests only read
 * it; one that writes does so at school D, which no other test reads.
 */
export const test = base.extend<{ rosteringTarget: void; world: World }>({
  // Every rostering test needs a rostering service in the target: without one it is not applicable.
  rosteringTarget: [async ({}, use) => {
    needs('rostering', target.rostering, 'a rostering service');
    await use();
  }, { auto: true, box: 'self' }],
  world: [async ({}, use) => {
    unlessHeld(WORLD_FIELDS);
    const world = rosteringRun().world;
    needs('rostering.organizations', world, 'the suites write their data with those ids');
    await use(world);
  }, { box: 'self' }],
});

export { expect };

/** Collects every `{href, sourcedId, type}` reference inside a record, with where it sits. */
export function referencesIn(value: unknown, at = '$'): { at: string; href: string; sourcedId: string; type: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesIn(v, `${at}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const o = value as Record<string, unknown>;
  if (typeof o.href === 'string' && typeof o.sourcedId === 'string' && typeof o.type === 'string') return [{ at, href: o.href, sourcedId: o.sourcedId, type: o.type }];
  return Object.entries(o).flatMap(([k, v]) => referencesIn(v, `${at}.${k}`));
}

/** Paths of null members anywhere inside a value. */
export function nullsIn(value: unknown, at = '$'): string[] {
  if (value === null) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullsIn(v, `${at}[${i}]`));
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nullsIn(v, `${at}.${k}`));
  return [];
}
