/** One entry of the problem-type registry (spec/errors/problem-types.json). */
export interface ProblemType {
  /** Suffix after the error-type prefix (`urn:core:api:`), e.g. `bad-request:data-validation-failed`. */
  suffix: string;
  title: string;
  /** @TJS-type integer */
  status: number;
  /** The detail the reference sends when the case gives no more specific text. */
  detail: string;
  /** Where the entry comes from: the seed's error table or a decision. */
  source: string;
  /** When this problem type is answered. */
  when: string;
}

export interface ProblemTypeRegistry {
  $schema?: string;
  /** Prefix the reference uses; targets may name another. */
  prefix: string;
  problemTypes: ProblemType[];
}
