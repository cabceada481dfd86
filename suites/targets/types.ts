/**
 * A target file describes one deployment under test. The suites read it from the path in the
 * TARGET environment variable (default: suites/targets/reference.json, the embedded reference).
 */
export interface Target {
  $schema?: string;
  /** Short name, shown in reports. */
  name: string;
  dataApi: DataApiTarget;
  /** The rostering read service, when the deployment has one. */
  rostering?: RosteringTarget;
  /** Client credentials by role. `primary` is required; others enable capabilities. */
  clients: { primary: ClientCredentials } & Record<string, ClientCredentials>;
  /** Values the suites write with, so that everything they create is recognisable and theirs. */
  testData?: {
    /** Namespace prefix for descriptors and namespaced resources; must be one of the primary client's prefixes. @default "uri://conformance.test" */
    namespacePrefix?: string;
  };
  /** Optional capabilities; a test needing one the target lacks is reported not applicable. */
  capabilities?: Capabilities;
}

export interface DataApiTarget {
  /** `{base_url}`: service origin, release segment and `/api`, e.g. `http://localhost:8080/v7.3/api`. */
  baseUrl: string;
  /** Namespace path segment of the core data model. @default "core" */
  namespaceSegment?: string;
  /** Problem-type prefix. @default "urn:core:api:" */
  errorTypePrefix?: string;
  /** Vendor word in profile media types (`application/vnd.<word>.<resource>.<profile>.readable+json`). @default "core" */
  mediaTypeVendor?: string;
  /**
   * The page-size maximum the deployment is configured with.
   * @TJS-type integer
   * @default 500
   */
  pageSizeMaximum?: number;
}

export interface RosteringTarget {
  baseUrl: string;
  /** Scope base prepended to `roster-core.readonly` etc. @default "" */
  scopeBase?: string;
}

/** Either literal values or the names of environment variables holding them. */
export interface ClientCredentials {
  key?: string;
  secret?: string;
  keyEnv?: string;
  secretEnv?: string;
}

export interface Capabilities {
  /** An administrative hook the suites may call to take a snapshot. */
  snapshotAdmin?: { url: string; keyEnv?: string; secretEnv?: string; key?: string; secret?: string };
  /** An administrative endpoint returning a digest of the store (proves a run leaves no trace). */
  storeDigest?: { url: string; key?: string; secret?: string; keyEnv?: string; secretEnv?: string };
  /** PEM private key of the issuer, for crafting tokens (file path or env variable name). */
  issuerSigningKey?: { pemFile?: string; pemEnv?: string };
}
