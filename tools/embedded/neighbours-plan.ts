/**
 * What the neighbours process (neighbours.ts) serves, passed to it in one variable. Kept apart
 * from neighbours.ts, which starts serving when loaded: deployments.ts only describes it.
 */
export const NEIGHBOURS_ENV = 'EMBEDDED_NEIGHBOURS';

/** Each neighbour's origin and the issuer and audience it expects. */
export interface NeighboursPlan {
  scopeBase: string;
  neighbours: { rostering: string; issuer: string; audience: string }[];
}
