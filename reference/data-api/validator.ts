import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIRouter, OpenAPIValidator, ValidationContext, type Document, type Operation } from 'openapi-backend';
import { boundedCopy } from './bounded-copy.js';
import { RefResolver } from './request-refs.js';

/**
 * Request validation by openapi-backend from the generated interface description. Routing is
 * ours (an O(1) table, see routes.ts): openapi-backend is only asked to validate a request
 * against an operation we name, with validators compiled once per operation on one shared Ajv
 * per validation context (openapi-backend would make a fresh Ajv per operation, ~20 ms each once
 * used, a fraction of a millisecond even unused). An operation's references are resolved when it
 * is first compiled (request-refs.ts), not the whole document at start-up.
 *
 * A body is judged in two steps, so that what a refusal costs is bounded (issue 23 finding 2:
 * 70,000 empty items made 350,000 errors, 7 s and 25 MB of answer; more overflowed the stack):
 * acceptance stops at the first error (every valid body is read once, as before), and only a
 * refused body is read again for all its errors, cut to REPORT_BUDGET values (bounded-copy.ts).
 */
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** Values of a refused body read for its errors: enough for the errors reported (validation-errors.ts). */
export const REPORT_BUDGET = 2_000;

function sharedAjv(opts: Options, allErrors: boolean): Ajv {
  // No optimisation pass over the generated code: it recounts every name of the code tree at
  // each node (ajv's codegen `names`), which was half of compiling the validators (4.0: 3.6 →
  // 2.0 s for all of them) while validating was no slower without it (bench: upsert 114–139 µs
  // either way). Compiling is paid by every deployment at start-up, validating only in µs.
  const ajv = new Ajv({ ...opts, allErrors, strict: false, coerceTypes: opts.coerceTypes ?? false, code: { ...opts.code, optimize: false } });
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

export interface Validated {
  errors: ErrorObject[];
  /** The query, each parameter coerced to its type where it could be. */
  query: Record<string, unknown>;
  /** False when a refused body was too large to read whole for its errors: more may exist. */
  complete: boolean;
}

/** openapi-backend's validator, every Ajv it asks for given by `ajvFor` (none made to be thrown away). */
class SharedAjvValidator extends OpenAPIValidator {
  constructor(definition: Document, router: OpenAPIRouter, private readonly ajvFor: (context: ValidationContext, opts: Options) => Ajv) {
    super({ definition, router, lazyCompileValidators: true });
  }

  override getAjv(context: ValidationContext, opts: Options = {}): Ajv {
    return this.ajvFor(context, { ...this.ajvOpts, ...opts });
  }
}

/** One Ajv per validation context, made on first use with the options openapi-backend asks for. */
function ajvPerContext(allErrors: (context: ValidationContext) => boolean): (context: ValidationContext, opts: Options) => Ajv {
  const byContext = new Map<ValidationContext, Ajv>();
  return (context, opts) => {
    let ajv = byContext.get(context);
    if (!ajv) byContext.set(context, (ajv = sharedAjv(opts, allErrors(context))));
    return ajv;
  };
}

export class RequestValidator {
  private readonly router: OpenAPIRouter;
  private readonly refs: RefResolver;
  /** Operations by id (openapi-backend's own lookup rebuilds its list per call), references unresolved. */
  private readonly operations: Map<string, Operation>;
  /** Operations whose parameters and body have their references resolved, by id. */
  private readonly resolved = new Map<string, Operation>();
  // Parameters coerced (`limit=5` → 5), bodies exact. Every query error is listed; a body is
  // accepted or refused at its first error (its errors are collected by report()).
  private readonly validator: SharedAjvValidator;
  private readonly requestValidators = new Map<string, ValidateFunction[]>();
  private readonly requestBodies: SharedBodies = new Map();
  private readonly requestParameters: SharedParameters = new Map();
  /** Validators that collect every error of a body, built when a body is first refused. */
  private reporter?: SharedAjvValidator;
  private readonly reportValidators = new Map<string, ValidateFunction[]>();
  private readonly reportBodies: SharedBodies = new Map();

  constructor(private readonly document: Document) {
    this.router = new OpenAPIRouter({ definition: document });
    this.refs = new RefResolver(document as unknown as Record<string, unknown>);
    this.operations = new Map(this.router.getOperations().map((op) => [op.operationId!, op]));
    this.validator = new SharedAjvValidator(document, this.router, ajvPerContext((context) => context !== ValidationContext.RequestBody));
  }

  /** Compiles the validators of the named operations ahead of their first request. */
  warm(operationIds: string[]): void {
    for (const id of operationIds) this.compiled(id);
  }

  /** The operation with its parameters and body resolved, or an error for an unknown id. */
  private operation(operationId: string): Operation {
    let op = this.resolved.get(operationId);
    if (op) return op;
    const raw = this.operations.get(operationId);
    if (!raw) throw new Error(`unknown operation ${operationId}`);
    op = { ...raw, parameters: this.refs.resolve(raw.parameters), requestBody: this.refs.resolve(raw.requestBody) } as Operation;
    this.resolved.set(operationId, op);
    return op;
  }

  /** The operation's validators, built on first use. */
  private compiled(operationId: string): ValidateFunction[] {
    let validators = this.requestValidators.get(operationId);
    if (!validators) {
      validators = [...this.bodyValidators(this.validator, this.requestBodies, operationId), ...this.parameterValidators(operationId)];
      this.requestValidators.set(operationId, validators);
    }
    return validators;
  }

  /**
   * The operation's parameter validator, shared with every operation whose parameters are the
   * same: it is built from the resolved parameters alone (openapi-backend's
   * buildRequestValidatorsForOperation), and most operations share theirs (4.0: 2,512
   * operations, 616 sets of parameters: every feed's, every GET by id's, every DELETE's …). A run
   * of the suites reaches nearly every operation: compiling validators was a fifth of the
   * reference's CPU in a whole 4.0 run, and sharing these takes about 5 % of that CPU off.
   */
  private parameterValidators(operationId: string): ValidateFunction[] {
    const op = this.operation(operationId);
    const key = JSON.stringify(op.parameters ?? []);
    let shared = this.requestParameters.get(key);
    if (!shared) {
      // Without its body (compiled apart, below): the validator then checks the parameters only.
      // (`!`: openapi-backend answers null only for an operation without an id; every one here has its id.)
      shared = this.validator.buildRequestValidatorsForOperation({ ...op, requestBody: undefined })!;
      this.requestParameters.set(key, shared);
    }
    return shared;
  }

  /**
   * The operation's body validators (none without a body), shared with every operation whose
   * body is the same schema (a resource's POST and PUT name one `$ref`, resolved into one object):
   * compiling a body is most of compiling an operation.
   */
  private bodyValidators(validator: SharedAjvValidator, bodies: SharedBodies, operationId: string): ValidateFunction[] {
    const op = this.operation(operationId);
    // Every body of the generated documents is JSON.
    const body = op.requestBody as { required?: boolean; content: Record<string, { schema: object }> } | undefined;
    const schema = body?.content['application/json'].schema;
    if (!schema) return [];
    const byRequired = bodies.get(schema) ?? new Map<boolean | undefined, ValidateFunction[]>();
    bodies.set(schema, byRequired);
    let shared = byRequired.get(body!.required);
    if (!shared) {
      // Built from the body alone; the parameter validator that comes with it is dropped (it
      // would refuse every query parameter, this bare operation declaring none). It has its id (`!`).
      shared = validator.buildRequestValidatorsForOperation({ operationId, requestBody: body } as Operation)!.filter(validatesBody);
      byRequired.set(body!.required, shared);
    }
    return shared;
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
  validate(operationId: string, req: RequestToValidate): Validated {
    const validators = this.compiled(operationId);
    const query: Record<string, unknown> = { ...req.query };
    const parameters: Record<string, unknown> = { path: {}, query, header: {}, cookie: {}, requestBody: req.body };
    const errors: ErrorObject[] = [];
    for (const validate of validators) {
      validate(parameters);
      // One at a time: spreading 200,000 errors into push's arguments overflows the stack (a 500).
      if (validate.errors) for (const e of validate.errors) errors.push(e);
    }
    const refusal = errors.find(isBodyError);
    if (!refusal) return { errors, query, complete: true };
    const { errors: bodyErrors, complete } = this.report(operationId, req.body);
    // The first error lies past what the report read: it is the one to give.
    return { errors: [...errors.filter((e) => !isBodyError(e)), ...(bodyErrors.length ? bodyErrors : [refusal])], query, complete };
  }

  /** Every error of a refused body, read from a copy cut to REPORT_BUDGET values. */
  private report(operationId: string, body: unknown): { errors: ErrorObject[]; complete: boolean } {
    let validators = this.reportValidators.get(operationId);
    if (!validators) {
      this.reporter ??= new SharedAjvValidator(this.document, this.router, ajvPerContext(() => true));
      // Only the body's: a report reads the body's errors alone.
      validators = this.bodyValidators(this.reporter, this.reportBodies, operationId);
      this.reportValidators.set(operationId, validators);
    }
    const { copy, cut } = boundedCopy(body, REPORT_BUDGET);
    const errors: ErrorObject[] = [];
    for (const validate of validators) {
      validate({ path: {}, query: {}, header: {}, cookie: {}, requestBody: copy });
      if (validate.errors) for (const e of validate.errors) if (isBodyError(e)) errors.push(e);
    }
    return { errors, complete: !cut };
  }
}

/** Compiled body validators by the body's resolved schema, then by its `required`. */
type SharedBodies = Map<object, Map<boolean | undefined, ValidateFunction[]>>;
/** Compiled parameter validators by the operation's resolved parameters, written as JSON. */
type SharedParameters = Map<string, ValidateFunction[]>;

/** Whether a validator openapi-backend built checks the request body (its schema's only member). */
const validatesBody = (v: ValidateFunction) => Object.hasOwn((v.schema as { properties: object }).properties, 'requestBody');

const isBodyError = (e: ErrorObject) => e.instancePath === '/requestBody' || e.instancePath.startsWith('/requestBody/');
