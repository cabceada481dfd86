/**
 * A target's known deviations (`<target>.deviations.json` beside the target file): tests or
 * rules the deployment is known to fail, each with a reason and an expiry date. Such tests run,
 * are expected to fail and are reported *known deviation*: the CI gate stays green, the verdict
 * never says conformant. Expired entries no longer apply; entries that match no test are
 * reported. The reference's file stays empty.
 */
export interface KnownDeviationsFile {
  $schema?: string;
  deviations: KnownDeviation[];
}

export interface KnownDeviation {
  /** A test, by its title path as the report shows it (`file › describe › title`), or a unique part of it. */
  test?: string;
  /** A rule id: every failure of that rule, in the tests that exist for it and in other tests' checks of it. */
  rule?: string;
  reason: string;
  /**
   * The last day the entry applies (YYYY-MM-DD).
   * @format date
   */
  expires: string;
}
