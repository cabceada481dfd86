/**
 * Whether a URL names a descriptor (`…/academicSubjectDescriptors/<id>`): every descriptor
 * resource's name ends in `Descriptor`, and no other's does. Descriptors reference nothing, so
 * they are deleted last, once the records that may reference them are gone (fixtures.ts for a
 * test's records, leftovers.ts for earlier runs').
 */
export const isDescriptorUrl = (url: string) => /Descriptors\/[^/]+$/i.test(new URL(url).pathname);
