/** A normative statement of a seed document or of decisions.md, with a stable slug id. */
export interface Rule {
  /**
   * Immutable slug: `<service>.<family>.<behaviour>`, lower case, never a section number.
   * @pattern ^(data|roster)\.[a-z0-9-]+\.[a-z0-9-]+(\.[a-z0-9-]+)*$
   */
  id: string;
  /** MUST when a seed document states it; SHOULD when it comes from decisions.md or upstream behaviour only. */
  level: 'MUST' | 'SHOULD';
  /** The rule family; each family is one folder of suites. */
  family: RuleFamily;
  /** One sentence, observable at the HTTP boundary, with the RFC 2119 keyword. */
  statement: string;
  source: RuleSource;
  /** Problem-type suffix (after the error-type prefix) the rule demands, if any. */
  problemType?: string;
  /** Set when the rule cannot be observed through HTTP by a black-box suite. */
  untestable?: string;
  /**
   * What a test must have brought about before the rule can pass (decision 39), e.g. "an expired
   * token presented and refused". A passing test that did not record it (`exercised()`) leaves
   * the rule not applicable, never passed.
   */
  evidence?: string;
}

export interface RuleSource {
  /** The document file name, e.g. `000_7f8fb752a8086bf3.txt`, `decisions.md`, `ods-server-details.md`. */
  document: string;
  /** The section heading the statement comes from (a heading text, not a number). */
  section: string;
}

export type RuleFamily =
  | 'upsert'
  | 'put'
  | 'delete'
  | 'etag'
  | 'query-paging'
  | 'change-queries'
  | 'snapshot'
  | 'validation'
  | 'references'
  | 'errors'
  | 'authentication'
  | 'authorization'
  | 'profiles'
  | 'limits'
  | 'versioning'
  | 'discovery'
  | 'token'
  | 'descriptors'
  | 'roster-auth'
  | 'roster-scopes'
  | 'roster-routing'
  | 'roster-resources'
  | 'roster-query'
  | 'roster-errors';

/** One rule file under spec/rules/. */
export interface RuleCatalogFile {
  $schema?: string;
  /** Which service the file's rules belong to. */
  service: 'data-api' | 'rostering';
  rules: Rule[];
}
