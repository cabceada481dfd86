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
  clients: Clients;
  /** Values the suites write with, so that everything they create is recognisable and theirs. */
  testData?: {
    /** Namespace prefix for descriptors and namespaced resources; must be one of the primary client's prefixes. @default "uri://conformance.test" */
    namespacePrefix?: string;
  };
  /** Optional capabilities; a test needing one the target lacks is reported not applicable. */
  capabilities?: Capabilities;
  /**
   * Playwright workers for runs against this deployment (`--workers` on the command line wins).
   * Default: by the round trip to the deployment, measured before the run: twelve per core, at
   * most 24, for one answering in 5 ms or more, whose tests mostly wait on the network; half the
   * cores, but at least 3 (3 on CI), for one answering sooner and for the embedded reference.
   * @TJS-type integer
   * @minimum 1
   */
  workers?: number;
}

export interface DataApiTarget {
  /** `{base_url}`: service origin, release segment and `/api`, e.g. `http://localhost:8080/v7.3/api`. */
  baseUrl: string;
  /**
   * The data standard the deployment serves (major.minor); the suites judge the deployment by
   * that standard's model (its resources, keys, types and lengths). When left out, it is read from
   * discovery's `dataModels`. Declare it only if discovery misreports the standard.
   */
  dataStandard?: '4.0' | '5.2' | '6.1';
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
  /**
   * The token lifetime the host configured (seed: 1800 seconds by default, host configurable):
   * `expires_in` of the primary client's tokens must equal it.
   * @TJS-type integer
   * @minimum 1
   * @default 1800
   */
  tokenLifetimeSeconds?: number;
  /**
   * How many seconds past a token's expiry the deployment may still accept it (a clock-skew
   * allowance of its token validation, e.g. five minutes in some JWT libraries). The tests that
   * wait a token out wait this much longer; keep it 0 unless the deployment is configured so.
   * @TJS-type integer
   * @minimum 0
   * @maximum 600
   * @default 0
   */
  tokenExpiryLeewaySeconds?: number;
}

export interface RosteringTarget {
  baseUrl: string;
  /**
   * `{scope_base}` of the rostering scopes (seed: `{scope_base}/<name>`), e.g. OneRoster's
   * `https://purl.imsglobal.org/spec/or/v1p2/scope`, with or without its trailing slash; empty
   * for bare names (`roster-core.readonly`). @default ""
   */
  scopeBase?: string;
  /**
   * Education organization ids reserved for the rostering suites: they create (and afterwards
   * delete) organizations with exactly these ids, so that tokens the deployment issues to the
   * clients below, whose claims name them, see what the suites wrote. Nothing else may use them.
   * Without this section the tests reading that data are not applicable.
   */
  organizations?: RosteringOrganizations;
  /**
   * Clients configured for rostering, by role name, each with the claims the deployment was
   * configured to give its tokens. Tokens come from the token endpoint (once per client and run);
   * a test uses a client whose declared claims fit it, and is not applicable when none does.
   */
  clients?: { [role: string]: RosteringClient };
  /** The routing flows (seed: Routing flows) the target offers; a flow not described is not applicable. */
  flows?: RosteringFlows;
  /**
   * Rostering services configured exactly like this one (same issuer key, algorithm and admin
   * database) but for their issuer or audience, so that tokens this deployment issues must be
   * refused there: checks of the `iss` and `aud` rules that need no signing key.
   */
  neighbours?: RosteringNeighbour[];
  /**
   * The issuer's public key, as the rostering service is configured with it
   * (OAUTH2_PUBLIC_KEY_PEM: SPKI PEM, on one line with literal \n or not): a literal, a file path
   * (relative to the target file) or an environment variable name. Vendors publish it freely. With it the suites check locally
   * that a token another declared flow's token endpoint issued is signed for this service, so
   * that its refusal here can only come from its `iss` or `aud` (the issuer and audience rules,
   * checked without any signing key).
   */
  issuerPublicKey?: { pem?: string; pemFile?: string; pemEnv?: string };
}

/** A rostering service configured like the target's but for OAUTH2_ISSUERBASEURL or OAUTH2_AUDIENCE. */
export interface RosteringNeighbour {
  /** Its origin. */
  rostering: string;
  /** Its OAUTH2_ISSUERBASEURL, when it differs from the issuer's `iss` (by a trailing slash, say). */
  issuer?: string;
  /** Its OAUTH2_AUDIENCE, when it differs from the `aud` the issuer gives. */
  audience?: string;
}

/**
 * The organizations the suites build (state agency SEA; districts LEA1 with schools A and B,
 * LEA2 with school C; school D, under none of them; a district for paging). All distinct.
 */
export interface RosteringOrganizations {
  /** @TJS-type integer */
  sea: number;
  /** A district under `sea`. @TJS-type integer */
  lea1: number;
  /** Another district under `sea`. @TJS-type integer */
  lea2: number;
  /** A school of `lea1`. @TJS-type integer */
  schoolA: number;
  /** Another school of `lea1`. @TJS-type integer */
  schoolB: number;
  /** A school of `lea2`. @TJS-type integer */
  schoolC: number;
  /** A school under no other of these organizations (records come and go there while tests run). @TJS-type integer */
  schoolD: number;
  /** A district the paging tests fill with 501 schools (their ids are drawn at random). @TJS-type integer */
  pagingLea: number;
}

/** Rostering scope names, without the scope base. */
export type RosteringScopeName = 'roster-core.readonly' | 'roster.readonly' | 'roster-demographics.readonly';

/**
 * A client configured for rostering, and the claims its tokens carry (as the token endpoint was
 * configured to issue them; the suites check the issued token against this before use).
 */
export interface RosteringClient extends ClientCredentials {
  /** The deployment issuing its tokens: the target itself (`single`, the default) or a routing flow's data API. @default "single" */
  flow?: keyof RosteringFlows;
  /** Its `educationOrganizationId` claim: these organizations; absent or empty: no claim. */
  educationOrganizationIds?: number[];
  /** Rostering scopes its tokens carry; absent or empty: none. */
  scopes?: RosteringScopeName[];
  /** Its `tenantId` claim; absent: no claim. */
  tenant?: string;
  /** Its `odsInstances` claim, entries in order. */
  odsInstances?: { id: number; context?: { key: string; value: string } }[];
}

/** A deployment in one routing configuration. */
export interface FlowDeployment {
  /** `{base_url}` of the data API writing the data store the flow should read (its token endpoint issues the flow's tokens). */
  dataApi: string;
  /** Origin of the rostering service in this configuration. */
  rostering: string;
  /** The service was configured with OAUTH2_PUBLIC_KEY_PEM on one line (literal \n). */
  publicKeyPemOneLine?: boolean;
}

/** An instance of an admin database with its context (context routing). */
export interface ContextInstance {
  /** @TJS-type integer */
  id: number;
  context: string;
}

/**
 * The four routing flows. Each says where a deployment in that configuration listens and what
 * its admin databases hold, so the suites know which token must read which data store.
 */
export interface RosteringFlows {
  /** Single-tenant, no context: instances by what their connection string is. */
  single?: FlowDeployment & {
    instances: {
      /** Plain-text connection string of the data API's store. @TJS-type integer */
      plain: number;
      /** Encrypted connection string of the data API's store. @TJS-type integer */
      encrypted: number;
      /** A connection string naming another, empty store. @TJS-type integer */
      otherStore: number;
      /** Encrypted, with a tampered ciphertext. @TJS-type integer */
      tampered?: number;
      /** Encrypted with another key. @TJS-type integer */
      foreignKey?: number;
      /** A connection string the service cannot use. @TJS-type integer */
      badConnection?: number;
    };
    /**
     * Environment variable holding, one per line, texts that must never appear in a response
     * (the encryption key, stored and plain connection strings).
     */
    secretsEnv?: string;
  };
  /** Single-tenant with context routing. */
  context?: FlowDeployment & { contextKey: string; instances: { data: ContextInstance; other: ContextInstance } };
  /** Multi-tenant: the same instance id in two tenants' admin databases, only one naming the data API's store. */
  tenant?: FlowDeployment & {
    dataTenant: string;
    otherTenant: string;
    /** @TJS-type integer */
    instance: number;
  };
  /** Multi-tenant with context routing. */
  tenantContext?: FlowDeployment & {
    dataTenant: string; otherTenant: string; contextKey: string;
    instances: { data: ContextInstance; other: ContextInstance };
  };
}

/**
 * Clients by role. Only `primary` is required; a test needing another role the target does not
 * name is reported not applicable. What each optional role is configured with is described under
 * `capabilities` (namespaceLimited, schoolLimited, profile, permissionLimits).
 */
export interface Clients {
  /** The client most tests use; its prefixes must include testData.namespacePrefix. */
  primary: ClientCredentials;
  /** A client with the namespace-based permission set (see capabilities.namespaceLimited). */
  namespaceLimited?: ClientCredentials;
  /** A client with the relationship-based permission set (see capabilities.schoolLimited). */
  schoolLimited?: ClientCredentials;
  /** A client assigned the profile described by capabilities.profile. */
  profiled?: ClientCredentials;
  /**
   * A client whose tokens the host configured to live only a few seconds: the suites obtain its
   * tokens, use them, wait them out and check that they are refused (the expired-token rules,
   * without any signing key). It needs only to read descriptors.
   */
  shortLived?: ShortLivedClient;
  [role: string]: ClientCredentials | undefined;
}

/** A client with its own, short token lifetime. */
export interface ShortLivedClient extends ClientCredentials {
  /**
   * The lifetime of its tokens in seconds, as `expires_in` reports it; the tests wait it out.
   * @TJS-type integer
   * @minimum 1
   * @maximum 60
   */
  tokenLifetimeSeconds: number;
  /**
   * `{base_url}` of the deployment the client belongs to, when that is not the target itself: a
   * second deployment of the same API (same names) whose host configured the short lifetime for
   * every client, for servers that set the lifetime per deployment only (upstream ODS/API:
   * `BearerTokenTimeoutMinutes` 1 gives 60 s). Its tokens are obtained and presented there.
   */
  baseUrl?: string;
}

/** Either literal values or the names of environment variables holding them. */
export interface ClientCredentials {
  key?: string;
  secret?: string;
  keyEnv?: string;
  secretEnv?: string;
}

export interface Capabilities {
  /**
   * An administrative hook the suites may call to take a snapshot: `POST <url>` (Basic
   * key:secret) takes a snapshot of the data store, replacing any earlier one, and `DELETE <url>`
   * drops it. A `url` without a scheme is relative to `{base_url}/`.
   */
  snapshotAdmin?: { url: string; keyEnv?: string; secretEnv?: string; key?: string; secret?: string };
  /** An administrative endpoint returning a digest of the store (proves a run leaves no trace). */
  storeDigest?: { url: string; key?: string; secret?: string; keyEnv?: string; secretEnv?: string };
  /**
   * PEM private key of the issuer, for crafting tokens (file path, relative to the target file, or env variable name). Tests
   * prefer declared rostering clients and `testIssuer`; only the embedded reference offers this.
   */
  issuerSigningKey?: { pemFile?: string; pemEnv?: string };
  /**
   * The suites' own signing key (PKCS#8 PEM private key, file path relative to the target file, or env variable name), whose
   * public key the rostering service under test is configured to trust in addition to its real
   * issuer's, with the same algorithm and the same iss/aud/exp checks. The suites sign tokens
   * with any claims with it (copying iss and aud from a real token), for the rules that need
   * claims no configured client has: wrong iss or aud, expiry, scope spellings and so on.
   */
  testIssuer?: { pemFile?: string; pemEnv?: string };
  /**
   * `clients.namespaceLimited` has the namespace-based permission set with this namespace prefix,
   * which testData.namespacePrefix does not start with.
   */
  namespaceLimited?: { namespacePrefix: string };
  /**
   * `clients.schoolLimited` has the relationship-based permission set and education-organization
   * claims naming exactly these school ids. The suites create (and afterwards delete) schools with
   * these ids; they must not be used by anything else.
   */
  schoolLimited?: { schoolIds: number[] };
  /**
   * `clients.profiled` is assigned this profile; the primary client is not. The profile covers
   * `resource` for reading (without `unreadableMember`) and writing (without `unwritableMember`),
   * and `readOnlyResource` for reading only. Resources are singular names (`academicWeek`),
   * members are top-level optional members of the resource.
   */
  profile?: { name: string; resource: string; unreadableMember: string; unwritableMember: string; readOnlyResource: string };
  /**
   * A client (role) whose permission set denies `deniedResource` entirely, even reads, and
   * grants `readOnlyResource` for reading but not creating. Both are endpoint names (`students`);
   * the suites write complete, valid bodies so that only the permission set can refuse them.
   */
  permissionLimits?: { client: string; deniedResource: string; readOnlyResource: string };
  /**
   * Where the data API's interface description (OpenAPI) is, for targets whose discovery document
   * does not lead to it through `urls.openApiMetadata`. A `url` without a scheme is relative to
   * `{base_url}/`.
   */
  interfaceDescription?: { url: string };
  /**
   * Release 7.3's cursor paging: `pageToken` + `pageSize` on collections, the `Next-Page-Token`
   * header, and (with `partitions`) `GET …/<resource>/partitions?number=N`. Deployments of
   * earlier releases leave it out and those tests are not applicable.
   */
  cursorPaging?: { partitions: boolean };
  /** Role of a client with the unrestricted permission set (no relationship or namespace checks). */
  unrestrictedClient?: string;
  /**
   * A fault-injection hook the deployment answers with a server error (500), so the suites can
   * check the body of a 500. A `url` without a scheme is relative to `{base_url}/`. With
   * credentials the suites call it with Basic key:secret (like snapshotAdmin), else with the
   * primary client's bearer token.
   */
  systemErrorTrigger?: { url: string; method?: 'GET' | 'POST'; key?: string; secret?: string; keyEnv?: string; secretEnv?: string };
  /**
   * An extension the suites write through `_ext`: `resource` (singular) carries
   * `_ext.<name>` with these `fields`. Default: `credential` with `_ext.conformance: { note }`.
   */
  extension?: ExtensionCapability;
  /**
   * A second deployment of the same API whose host lowered the maximum page size below 500
   * (seed Limits: `defaultPageSizeLimit`), for targets that themselves keep the default. The
   * primary client's credentials must work there. `baseUrl` is its `{base_url}`.
   */
  loweredPageSize?: {
    baseUrl: string;
    /**
     * @TJS-type integer
     * @minimum 1
     * @maximum 499
     */
    pageSizeMaximum: number;
  };
}

/**
 * An extension the deployment serves, e.g. `{ "resource": "credential", "name": "conformance",
 * "fields": { "note": "written through _ext" } }`: the suites write `_ext: { <name>: <fields> }`
 * on a `resource` and expect to read it back unchanged.
 */
export interface ExtensionCapability {
  /** The resource carrying the extension, singular (`credential`). */
  resource: string;
  /** The extension's name, the key under `_ext` (`conformance`). */
  name: string;
  /**
   * The extension's fields, each by name with an example value the deployment accepts and
   * returns as written. At least one.
   * @minProperties 1
   */
  fields: { [field: string]: string | number | boolean };
}
