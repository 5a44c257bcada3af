/**
 * The way back: one streamed response of a provider, its SDK's streaming events as plain objects,
 * to OmniMessages (`fromStream(provider, events, { timestamp })`), as the reference's gateway
 * translates it and as the Python binding's `omnimessage.providers.from_stream` does, byte for
 * byte (`python/tests/test_providers_stream_ts.py` holds the two equal, errors included).
 *
 * @module
 */

import type { OmniMessage, TokenCounts } from "../generated/types.js";
import { anthropicUni } from "./anthropic-stream.js";
import { geminiUni } from "./gemini-stream.js";
import { openAIChatUni } from "./openai-chat-stream.js";
import { openAIResponsesUni } from "./openai-responses-stream.js";
import { WriteError } from "./stream-json.js";
import type { ProviderStreamEvents } from "./stream-events.js";
import { MAX_STREAM_BYTES, StreamError, Translator, type Uni } from "./translate.js";
import type { Provider } from "./types.js";

export { MAX_STREAM_BYTES, StreamError } from "./translate.js";

const READERS: Readonly<Record<Provider, (events: Iterable<unknown>) => Generator<[number, Uni]>>> = {
  anthropic: anthropicUni,
  "openai-chat": openAIChatUni,
  "openai-responses": openAIResponsesUni,
  gemini: geminiUni,
};

/** The options of {@link fromStream}. */
export interface FromStreamOptions {
  /** Tool-call ids the session already holds (a repeated provider id gets a `#n` suffix). */
  readonly usedIds?: Iterable<string>;
  /** The session's token counts before this request. */
  readonly sessionBefore?: TokenCounts;
  /** The messages' timestamp (absent: the time each is built). */
  readonly timestamp?: string;
  /** The cap on the text the response's open segments buffer, in UTF-8 bytes ({@link MAX_STREAM_BYTES}). */
  readonly maxBytes?: number;
}

/**
 * OmniMessages for one streamed response of `provider`: `partial_*` start, deltas and stop for
 * each segment, each segment's complete message (`fidelity` and `stop_reason` included) after its
 * stop, then `token_usage`. `events` are the provider SDK's streaming events (typed as
 * {@link ProviderStreamEvents}: the SDK's own, or the JSON of the wire); each is read as input.
 *
 * Throws a {@link StreamError} (naming the event) for an event of the wrong shape, tool-call
 * arguments that are not JSON, or open segments over `maxBytes`; a `TypeError` for an unknown
 * provider.
 */
export function fromStream<P extends Provider>(provider: P, events: Iterable<ProviderStreamEvents[P]>, opts?: FromStreamOptions): OmniMessage[];
export function fromStream(provider: Provider, events: Iterable<unknown>, opts: FromStreamOptions = {}): OmniMessage[] {
  const read = READERS[provider as keyof typeof READERS] as ((events: Iterable<unknown>) => Generator<[number, Uni]>) | undefined;
  if (!Object.hasOwn(READERS, provider) || read === undefined) {
    throw new TypeError(`no stream translation for provider ${JSON.stringify(provider)}: one of ${Object.keys(READERS).join(", ")}`);
  }
  const translator = new Translator({ ...opts });
  const out: OmniMessage[] = [];
  let index = 0;
  try {
    for (const [n, uni] of read(events)) {
      index = n;
      translator.push(uni, n, out);
    }
    translator.finish(out, opts.sessionBefore);
  } catch (e) {
    if (e instanceof StreamError) throw e;
    if (e instanceof WriteError && e.deep) throw new StreamError(index, "a value in the event is nested too deeply");
    if (e instanceof Error && !(e instanceof RangeError && /call stack/i.test(e.message))) {
      throw new StreamError(index, `a value in the event cannot be an OmniMessage: ${e.message}`);
    }
    throw new StreamError(index, "a value in the event is nested too deeply"); // the stack, past what re-serialising can hold
  }
  return out;
}
