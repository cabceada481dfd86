/**
 * Configuration of the reference servers: one JSON file (see reference/config/README or the
 * generated spec/schemas/reference-config.schema.json). Every member has a working default,
 * so the reference runs with no file at all.
 */
export interface ReferenceConfig {
  $schema?: string;
  /**
   * Data API port; 0 picks a free port.
   * @TJS-type integer
   * @default 8080
   */
  port?: number;
  /**
   * Rostering service port; 0 picks a free port.
   * @TJS-type integer
   * @default 8081
   */
  rosteringPort?: number;
  /** Interface to listen on. @default "127.0.0.1" */
  host?: string;
  /** Release segment and `/api` after the origin: `{base_url}` = origin + basePath. @default "/v7.3/api" */
  basePath?: string;
  /**
   * The data API's `{base_url}` as clients reach it (behind a proxy, say), e.g.
   * `https://api.example.org/v7.3/api`; its path must be `basePath`. When set, `Location`,
   * discovery and interface-description URLs, the rostering service's links (and the default
   * token issuer) use its origin instead of the request's Host header.
   */
  publicBaseUrl?: string;
  /**
   * Without `publicBaseUrl`: host names (no port) both services answer to besides their listening
   * address (the address a connection came in on, `localhost` on a loopback one, and `host`), e.g.
   * the name clients use through a proxy that keeps their Host header. A request whose Host names
   * anything else gets 400, so no answer reflects a name the client chose.
   * @default []
   */
  allowedHosts?: string[];
  /**
   * Token lifetime in seconds (`expires_in`).
   * @TJS-type integer
   * @minimum 1
   * @default 1800
   */
  tokenLifetimeSeconds?: number;
  /**
   * How many seconds in the future a token's `iat` may lie before both services refuse it
   * (clock differences between issuer and server).
   * @TJS-type integer
   * @minimum 0
   * @default 60
   */
  tokenClockSkewSeconds?: number;
  /**
   * The names the deployment gives the API: the seed's neutral names (the default) or upstream's
   * (`"profile": "upstream"`: `ed-fi`, `urn:ed-fi:api:`, `vnd.ed-fi`, `x-Ed-Fi-`, `Ed-Fi`, and
   * OneRoster's scope base), each overridable member by member.
   */
  naming?: NamingConfig;
  /**
   * Maximum page size (`defaultPageSizeLimit`); also the page size when `limit` is omitted.
   * @TJS-type integer
   * @minimum 1
   * @maximum 500
   * @default 500
   */
  pageSizeLimit?: number;
  /**
   * The Ed-Fi data standard this deployment serves, as upstream builds one deployment per standard
   * (decision 44): `"4.0"` the 4.0 extract with the seed's rows (the seed's tables describe 4.0),
   * `"5.2"` and `"6.1"` exactly as upstream serves them. Its resources, interface descriptions,
   * dependencies, demo data, authorization and rostering mapping all follow it, and discovery's
   * `dataModels` names it. Unset: `"4.0"`, the seed's standard.
   */
  dataStandard?: '4.0' | '5.2' | '6.1';
  /**
   * Resources (singular names, e.g. `"credential"`) that accept and return `_ext`, an object
   * keyed by extension name holding extension fields, as an upstream deployment with an
   * extension installed does (the seed: "Present on some resources (for example credential)").
   * On 4.0 the seed's credential has it anyway; 5.2 and 6.1 as upstream ship none. A name the
   * standard lacks stops start-up (exit 2).
   */
  extensionResources?: string[];
  /** School years accepted by default: 1991 to 2050. */
  schoolYears?: { min: number; max: number };
  /** The token issuer. Without a key the reference generates an RSA key pair at start. */
  issuer?: IssuerConfig;
  /** API clients. Without any, one demo client with the unrestricted permission set is created. */
  clients?: ClientConfig[];
  /**
   * Credential for the administrative endpoints (snapshots, fault injection, store digest).
   * Without one they do not exist (404): there is no default. `REFERENCE_ADMIN_KEY` and
   * `REFERENCE_ADMIN_SECRET` in the environment set it too (harnesses generate one per run).
   */
  admin?: AdminConfig;
  /**
   * Connection string of the data store: `memory:<name>` (default `memory:default`) or
   * `file:<path>` for a durable store (journal + checksummed state file at that path).
   */
  dataStore?: string;
  /**
   * Durable stores: fsync each journal record before the write is acknowledged, so that an
   * acknowledged write also survives an operating-system crash or power loss (a disk flush per
   * write; see `npm run bench`). Without it, it survives a killed process. @default false
   */
  journalFsync?: boolean;
  /**
   * Durable stores: journal entries between two compactions of the state file (in the
   * background; a failed one is reported and tried again after as many). Fewer: a shorter replay
   * at start-up, more rewrites of the whole state.
   * @TJS-type integer
   * @minimum 1
   * @default 20000
   */
  journalCompactEvery?: number;
  /**
   * Durable stores: drop damaged journal records at start-up (reporting how many) instead of
   * refusing to start. For one recovery start (`--recover`), not for a standing configuration.
   * @default false
   */
  recoverJournal?: boolean;
  /** Load the demo data set at start (`npm start` does; tests start empty). @default false */
  demoData?: boolean;
  /**
   * Create every school year of `schoolYears` at start that the store lacks (a deployment whose
   * school-year table is full, as upstream's usually is). @default false
   */
  preloadSchoolYears?: boolean;
  /**
   * Compile every request validator in the background after start-up (one per tick), so no
   * operation's first request pays for it. With the whole data standard that is several seconds
   * of background work; false leaves each validator to its operation's first request (tests that
   * time the event loop right after start-up).
   * @default true
   */
  warmValidators?: boolean;
  /**
   * Admin database (instance table) of a single-tenant deployment: `memory:default` (instance 1
   * is `dataStore`) or `file:<path>` of a lowdb JSON file. @default "memory:default"
   */
  adminDatabase?: string;
  /** Multi-tenant deployments: each tenant's admin database; routes become `{base_url}/<tenant>/data/v3/…`. */
  tenants?: { [tenant: string]: { adminDatabase: string } };
  /** Base64 32-byte key that decrypts connection strings in the instance tables (decisions #26). */
  connectionStringEncryptionKey?: string;
  /**
   * Largest request body accepted, in bytes; larger ones get 413.
   * @TJS-type integer
   * @minimum 1024
   * @default 4194304
   */
  maxBodyBytes?: number;
  /**
   * Most records one client may hold in a data store (records it created and has not deleted);
   * a create beyond it gets 403 `record-quota-exceeded`, updates and deletes go on. With
   * `maxBodyBytes` it bounds what one client can make the store hold. Off when absent;
   * `clients[].recordQuota` sets it per client.
   * @TJS-type integer
   * @minimum 0
   */
  recordQuota?: number;
  /** Time limits on client connections (both services), so that slow or stalled clients cannot hold sockets. */
  connections?: ConnectionsConfig;
  /** Per-client request rate on the data API and the rostering service (token bucket); off when absent. Over it: 429. */
  rateLimit?: RateConfig;
  /** Limits on failed credential and token checks, which cost the server more than they cost the caller. */
  throttle?: ThrottleConfig;
  /** Profiles: named views of resources that clients may be assigned (seed Endpoints rule 8). */
  profiles?: ProfileConfig[];
}

export interface NamingConfig {
  /** The names to start from. @default "neutral" */
  profile?: 'neutral' | 'upstream';
  /** Namespace segment: `{base_url}/data/v3/<segment>/<resource>`. @pattern ^[a-z0-9][a-z0-9-]*$ */
  namespaceSegment?: string;
  /** Prefix of problem-details `type` values, e.g. `urn:ed-fi:api:`. @pattern ^[a-z][a-z0-9.+-]*:.*:$ */
  problemTypePrefix?: string;
  /** Vendor word of profile media types (`application/vnd.<vendor>.<resource>.<profile>.readable+json`). @pattern ^[a-z0-9][a-z0-9-]*$ */
  mediaTypeVendor?: string;
  /** Prefix of the interface descriptions' extensions, e.g. `x-Ed-Fi-`. @pattern ^x-[A-Za-z0-9-]*-$ */
  extensionPrefix?: string;
  /** Data model name in discovery's `dataModels` (and, as upstream, the component-schema prefix: `Ed-Fi` → `edFi_`). @pattern ^[A-Za-z][A-Za-z0-9-]*$ */
  dataModelName?: string;
  /**
   * `{scope_base}` of the rostering scopes the token endpoint issues and the rostering service
   * requires (`{scope_base}/roster-core.readonly`), e.g. OneRoster's
   * `https://purl.imsglobal.org/spec/or/v1p2/scope`. Empty: bare scope names.
   * `REFERENCE_ROSTERING_SCOPE_BASE` in the environment overrides it.
   */
  rosteringScopeBase?: string;
}

export interface AdminConfig {
  key: string;
  /** Plain secret; hashed when the configuration is loaded and never kept in clear. */
  secret?: string;
  /** `scrypt$<salt b64>$<hash b64>`, as an alternative to `secret`. */
  secretHash?: string;
  /** Answer the administrative endpoints only to loopback callers (others get 404). @default true */
  loopbackOnly?: boolean;
}

export interface RateConfig {
  /** Refill rate of the bucket. @minimum 0.001 */
  requestsPerSecond: number;
  /** @TJS-type integer @minimum 1 */
  burst: number;
}

export interface ConnectionsConfig {
  /**
   * Time a client has to send a request's headers, in ms (slowloris), and a new connection its
   * first request; over it the socket is closed.
   * @TJS-type integer
   * @minimum 100
   * @default 20000
   */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send a whole request, body included, in ms (408, then closed): bounds
   * the time a body may take to arrive.
   * @TJS-type integer
   * @minimum 100
   * @default 60000
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open, in ms.
   * @TJS-type integer
   * @minimum 100
   * @default 5000
   */
  keepAliveTimeoutMs?: number;
}

export interface ThrottleConfig {
  /**
   * Failed secret checks at the token endpoint per client key (429 `temporarily_unavailable` over
   * it, only to the addresses that failed against the key themselves: a client whose secret is
   * right is not locked out by others' guesses). @default {"requestsPerSecond":1,"burst":20}
   */
  tokenFailuresPerKey?: RateConfig;
  /**
   * Token requests refused before their client was authenticated, per source address: wrong or
   * missing credentials, oversized (over 64 KiB), unparsable or malformed bodies. Over it, the
   * address's requests are refused before their body is parsed. @default {"requestsPerSecond":5,"burst":50}
   */
  tokenFailuresPerAddress?: RateConfig;
  /** Failed token checks at the rostering service per source address (429 with the status body). @default {"requestsPerSecond":20,"burst":200} */
  rosteringFailuresPerAddress?: RateConfig;
  /** Failed admin credential checks per source address (429 over it). @default {"requestsPerSecond":1,"burst":10} */
  adminFailuresPerAddress?: RateConfig;
}

export interface ProfileConfig {
  /** Used in the media types `application/vnd.core.<resource>.<name>.readable+json` / `writable+json`. */
  name: string;
  /** By resource endpoint name (e.g. `schools`): the top-level members each direction keeps. */
  resources: { [endpoint: string]: ProfileResource };
}

export interface ProfileResource {
  read?: MemberFilter;
  write?: MemberFilter;
}

/** Either the members to keep, or the members to drop; identity members are always kept. */
export interface MemberFilter {
  include?: string[];
  exclude?: string[];
}

export interface IssuerConfig {
  /** `iss` claim; defaults to the data API's `{base_url}`. */
  issuer?: string;
  /** `aud` claim; defaults to the rostering service's base URL. */
  audience?: string;
  /** PKCS#8 PEM private key (RS256). */
  privateKeyPem?: string;
}

export type PermissionSet = 'unrestricted' | 'relationship-based' | 'namespace-based';

export interface ClientConfig {
  key: string;
  /** Plain secret; hashed when the configuration is loaded and never kept in clear. */
  secret?: string;
  /** `scrypt$<salt b64>$<hash b64>`, as an alternative to `secret`. */
  secretHash?: string;
  /** @default "unrestricted" */
  permissionSet?: PermissionSet;
  /** Prefixes a written `namespace` value must start with. */
  namespacePrefixes?: string[];
  /** Education organizations the client's claims name. */
  educationOrganizationIds?: number[];
  /** Profile names the client may use. */
  profiles?: string[];
  /** Rostering scopes the client may be issued, e.g. `roster-core.readonly`. */
  rosterScopes?: string[];
  /** Data-store instances (and their contexts) the client's token names. */
  odsInstances?: { id: number; context?: { key: string; value: string } }[];
  /** Tenant of the client when multi-tenant. */
  tenant?: string;
  /**
   * Most records this client may hold in a data store, instead of the global `recordQuota`.
   * @TJS-type integer
   * @minimum 0
   */
  recordQuota?: number;
  /**
   * This client's token lifetime in seconds (`expires_in`), instead of the global
   * `tokenLifetimeSeconds`: a short-lived client lets conformance suites wait a token out.
   * @TJS-type integer
   * @minimum 1
   */
  tokenLifetimeSeconds?: number;
}
