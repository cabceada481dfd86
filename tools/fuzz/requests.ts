/**
 * Malformed requests for both services of the reference, and the judge of their answers. One
 * module serves the full fuzzer (`npm run fuzz`, tools/fuzz/main.ts) and the fixed-seed
 * slice that `npm test` runs (reference/tests/reliability/fuzz-slice.test.ts).
 *
 * fast-check generates small *recipes* (what to break and how); `materialize` turns a recipe
 * into the HTTP request (huge strings and deep nesting are only built then), `send` sends it over
 * loopback with a timeout, and `judge` lists what is wrong with the answer: a 5xx, a 4xx that is
 * not a well-formed problem (data API) or status body (rostering), a stack trace, a file path,
 * a connection string or a secret, a hang, a reset connection.
 */
export * from './target.js';
export * from './recipes.js';
export * from './materialize.js';
export * from './send.js';
export * from './judge.js';
export * from './run.js';
export * from './shapes.js';
