/**
 * `omnimessage/restore`: a session's model context, restored from its trace as the reference
 * harness's resume rebuilds it (Node.js only: it reads files). docs/model.md describes each rule.
 *
 * @module
 */

export { MAX_CONTEXT_BYTES, RestoreError, restore, type ContextLine, type RestoreOptions, type Restored } from "./restore.js";
export { PLACEHOLDER_OUTPUT } from "./replay.js";
export { TraceRootError } from "./roots.js";
