import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from './judged-model.js';

/**
 * The seed's "parent" in the judged standard's words: the person record of kind `contact` (4.0's
 * `parent`, 5.2's and 6.1's `contact`) and the association that links it to a student (4.0's
 * `studentParentAssociation` through `parentReference`, later `studentContactAssociation` through
 * `contactReference`), read from the model so that one test body fits every standard.
 */
export interface ContactLink {
  person: CompiledResource;
  association: CompiledResource;
  /** The association's member referencing the person, e.g. `contactReference`. */
  via: string;
  /** The person's natural key, e.g. `contactUniqueId`. */
  key: string;
}

export function contactLink(): ContactLink {
  const person = model.resources.find((r) => r.person === 'contact');
  const association = model.resources.find((r) => r.relationship?.person === 'contact');
  if (!person || !association || person.identity.length !== 1) throw new Error('persons: the judged model has no contact person record with a one-member key and student association');
  return { person, association, via: association.relationship!.via, key: person.identity[0].name };
}

/** A body member linking to the contact `id` through the association's reference. */
export const contactReference = (link: ContactLink, id: unknown): Record<string, unknown> => ({ [link.via]: { [link.key]: id } });
