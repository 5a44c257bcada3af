/**
 * The message a lenient decode keeps for a well-formed line that strict decoding refused.
 *
 * @module
 */

import type { DecodeError } from "./errors.js";

/**
 * A well-formed line that strict decoding refused (lenient mode only). It re-encodes to
 * exactly the bytes of its object, from `{` to `}` (schema/README.md section 5), so relays and
 * forward-compatible readers pass messages of a newer protocol version through untouched.
 */
export class OpaqueMessage {
  /**
   * @param raw - the line's object, from its `{` to its `}` (the JSON whitespace around it, a CR
   *   before the line feed included, is not part of it).
   * @param error - why strict decoding refused it.
   */
  constructor(
    readonly raw: string,
    readonly error: DecodeError,
  ) {}
}

