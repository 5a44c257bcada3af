/**
 * The consumer role of the conformance testee (conformance/TESTEE-PROTOCOL.md, "The consumer
 * role"): read the scripted SSE stream at the request's `url` with `omnimessage/consume`'s
 * `subscribe` into a `RenderModel` until the server ends it (`204`), and answer every card's
 * complete messages in arrival order, depth first.
 *
 * @module
 */

import { RenderModel, subscribe, type Card } from "omnimessage/consume";
import type { Card as AnsweredCard, ConsumerRequest, Error as ErrorAnswer, Rendered, Skipped } from "./testee-protocol.js";

/** An answer as ./testee-protocol.ts types it, its `id` echoed as it came (a malformed request's may be no string). */
export type Echoed<A> = A extends unknown ? Omit<A, "id"> & { id: unknown } : never;
type Response = Echoed<Rendered | ErrorAnswer | Skipped>;

/** Whether a request is one of the consumer role. */
export function isConsumerRequest(parsed: unknown): boolean {
  return typeof parsed === "object" && parsed !== null && (parsed as { role?: unknown }).role === "consumer";
}

function cardsOf(card: Card, out: AnsweredCard[]): void {
  out.push({ origin: card.origin, messages: card.messages });
  for (const item of card.items) if (item.kind === "card") cardsOf(item.card, out);
}

/** Answer one consumer request. */
export async function handleConsumer(parsed: unknown): Promise<Response> {
  const req = parsed as { [K in keyof ConsumerRequest]?: unknown };
  const id = req.id ?? null;
  if (typeof req.url !== "string" || !/^http:\/\/127\.0\.0\.1:\d+\//.test(req.url)) {
    return { id, result: "skipped", reason: "malformed request: `url` must be an http URL on 127.0.0.1" };
  }
  const model = new RenderModel();
  try {
    // The runner's server ends the stream with 204; a case that never does is ended by the runner's time limit.
    for await (const event of subscribe(req.url, { reconnect: { attempts: 8, delayMs: 1000, maxDelayMs: 2000 } })) model.apply(event);
  } catch (e) {
    return { id, result: "error", message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  const cards: AnsweredCard[] = [];
  cardsOf(model.root, cards);
  return { id, result: "rendered", cards };
}
