/**
 * Package-private helpers of the command line (src/cli/), reached through the `imports` entry
 * `#internal` of package.json: not in `exports`, so not part of the public API (src/index.ts).
 *
 * @module
 */

export { readLine } from "./reader.js";
export { utf8Error } from "./utf8.js";
