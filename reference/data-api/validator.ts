import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';

/**
 * Request validation by openapi-backend from the generated interface description. Routing is
 * ours (an O(1) table, see routes.ts): openapi-backend is only asked to validate a request
 * against an operation we name, with validators compiled once per operation on one shared Ajv
 * per validation context (instead of a fresh Ajv per operation, which costs ~20 ms each).
 */
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

function sharedAjv(opts: Options): Ajv {
  const ajv = new Ajv({ ...opts, allErrors: true, strict: false, coerceTypes: opts.coerceTypes ?? false });
  addFormats.default(ajv);
  // Time-of-day values carry no zone in this API (`08:30:00`); ajv-formats' `time` requires one.
  ajv.addFormat('time', TIME_OF_DAY);
  // ajv-formats' int32 and int64 check what they should; its double accepts any number.
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  return ajv;
}

export interface RequestToValidate {
  query: Record<string, string>;
  body?: unknown;
}

export class RequestValidator {
  private readonly api: OpenAPIBackend;
  private readonly ajvByContext = new Map<string, Ajv>();
  /** Operations by id, built once: openapi-backend's own lookup rebuilds its list per call. */
  private operations = new Map<string, Operation>();

  constructor(document: Document) {
    this.api = new OpenAPIBackend({
      definition: document,
      quick: true,
      validate: true,
      // openapi-backend asks for one Ajv per context, each always with the same options
      // (parameters coerced: `limit=5` → 5; bodies exact).
      customizeAjv: (_fresh, opts, context) => {
        let ajv = this.ajvByContext.get(context);
        if (!ajv) this.ajvByContext.set(context, (ajv = sharedAjv(opts)));
        return ajv;
      },
    });
  }

  async init(): Promise<void> {
    await this.api.init();
    this.operations = new Map(this.api.getOperations().map((op) => [op.operationId!, op]));
  }

  /** Compiles the validators of the named operations ahead of their first request. */
  warm(operationIds: string[]): void {
    for (const id of operationIds) this.compiled(id);
  }

  /** Registers an operation's validators, built from the indexed operation object. */
  private compiled(operationId: string): void {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`unknown operation ${operationId}`);
    const v = this.api.validator;
    if (!v.requestValidators[operationId]) v.requestValidators[operationId] = v.buildRequestValidatorsForOperation(operation) ?? [];
  }

  /**
   * Ajv errors of the request's query and body, or an empty list, and the query with each
   * parameter coerced to its type where it could be (a value that could not keeps its text).
   * Calls the operation's compiled validators directly: openapi-backend's validateRequest
   * re-parses the request each time (path template compiled to a RegExp, headers and cookies
   * mapped with lodash), which costs more than the validation. Path and header parameters are
   * not given: the router has parsed the only path parameter (the id) before any validation, and
   * headers are read where they are used; so errors under `/path` say nothing and callers read
   * only those under `/query` and `/requestBody`.
   */
  validate(operationId: string, req: RequestToValidate): { errors: ErrorObject[]; query: Record<string, unknown> } {
    this.compiled(operationId);
    const validators = this.api.validator.requestValidators[operationId]!; // set by compiled()
    const query: Record<string, unknown> = { ...req.query };
    const parameters: Record<string, unknown> = { path: {}, query, header: {}, cookie: {}, requestBody: req.body };
    const errors: ErrorObject[] = [];
    for (const validate of validators) {
      validate(parameters);
      if (validate.errors) errors.push(...validate.errors);
    }
    return { errors, query };
  }
}
