/**
 * A deployment setting that cannot be used: an admin database, an instance's connection string.
 * The request fails with a bare 500 as any other internal failure does, but the log marks it
 * `configuration:`, as the operator's to fix rather than a defect.
 */
export class ConfigurationError extends Error {}
