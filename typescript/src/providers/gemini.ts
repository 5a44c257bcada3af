/**
 * Gemini `generateContent`: a context as the `contents` and `systemInstruction` of a request body
 * (REST JSON), as the Python binding's `omnimessage.providers.gemini` (the spec; docs/model.md,
 * "Providers"): one content per run of one role (`user`, `model`); text, thinking (`thought`),
 * inline data and tool calls carry a base64 `fidelity.signature` as `thoughtSignature`; a tool
 * call is a `functionCall` (its id unless the id is the function's name), a tool output a
 * `functionResponse` named after its call; data URLs are inline data; a run mixing function
 * responses with other parts is split into consecutive contents of the same role.
 *
 * @module
 */

import { dataUrl, prepare, stripIdSuffix, toolArguments, type Item, type LossLog, type Projection, type ProjectionInput } from "./types.js";

export interface GeminiBlob {
  mimeType: string;
  data: string;
}
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: { result: string }; parts?: { inlineData: GeminiBlob }[] };
}
export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/** The request body of `generateContent` (REST) without the model. */
export interface GeminiBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
}

function inline(item: Item, url: string, pointer: string, losses: LossLog): GeminiBlob | null {
  const d = dataUrl(url);
  if (d === null) {
    losses.add(item.index, pointer, "image-url-not-inlined");
    return null;
  }
  return { mimeType: d.mediaType, data: d.data };
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Canonical standard base64, the only spelling the API (and the SDK's bytes field) takes: padded
 * to whole quads, the bits below the last byte zero (what decodes and re-encodes to itself). */
function isBase64(value: unknown): boolean {
  if (typeof value !== "string" || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value)) return false;
  if (value.endsWith("==")) return (ALPHABET.indexOf(value[value.length - 3] as string) & 0x0f) === 0;
  if (value.endsWith("=")) return (ALPHABET.indexOf(value[value.length - 2] as string) & 0x03) === 0;
  return true;
}

function signed(item: Item, part: GeminiPart, losses: LossLog): GeminiPart {
  const signature = item.fidelity.signature;
  const present = signature !== undefined && signature !== null;
  if (present && !isBase64(signature)) losses.add(item.index, "/payload/fidelity/signature", "signature-not-base64");
  losses.fidelity(item, ["signature"]);
  if (present && isBase64(signature)) part.thoughtSignature = signature as string;
  return part;
}

function toPart(item: Item, names: Map<string, string>, losses: LossLog): GeminiPart | null {
  switch (item.type) {
    case "text":
      return signed(item, { text: item.text("text") }, losses);
    case "thinking": {
      const thought = signed(item, { text: item.text("thinking"), thought: true }, losses);
      if (thought.text === "" && thought.thoughtSignature === undefined) {
        losses.add(item.index, "/payload/thinking", "thinking-empty"); // an empty thought: nothing to send
        return null;
      }
      return thought;
    }
    case "inline_data":
    case "inline_thinking": {
      const part: GeminiPart = { inlineData: { mimeType: item.text("mime_type"), data: item.text("data") } };
      if (item.type === "inline_thinking") part.thought = true;
      return signed(item, part, losses);
    }
    case "image_url": {
      const blob = inline(item, item.text("image_url"), "/payload/image_url", losses);
      return blob === null ? null : { inlineData: blob };
    }
    case "tool_call": {
      const id = stripIdSuffix(item, losses);
      const name = item.text("name");
      names.set(id, name);
      const args = toolArguments(item, losses);
      return signed(item, { functionCall: id !== name ? { id, name, args } : { name, args } }, losses);
    }
    default: {
      // tool_call_output
      const id = stripIdSuffix(item, losses);
      const name = names.get(id) ?? id;
      const response: NonNullable<GeminiPart["functionResponse"]> = id !== name ? { id, name, response: { result: item.text("output") } } : { name, response: { result: item.text("output") } };
      const blobs = item.images().map((url, n) => inline(item, url, `/payload/images/${n}`, losses)).filter((b): b is GeminiBlob => b !== null);
      if (blobs.length > 0) response.parts = blobs.map((b) => ({ inlineData: b }));
      return { functionResponse: response };
    }
  }
}

/** Function responses and other parts in separate runs, in order (one run when homogeneous). */
function runs(parts: GeminiPart[]): GeminiPart[][] {
  const out: GeminiPart[][] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last !== undefined && ("functionResponse" in (last[last.length - 1] as GeminiPart)) === ("functionResponse" in part)) last.push(part);
    else out.push([part]);
  }
  return out;
}

/** The Gemini `generateContent` request body of a context. */
export function projectGemini(input: ProjectionInput): Projection<GeminiBody> {
  const { groups, losses, system } = prepare(input);
  const names = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const g of groups) {
    const parts = g.items.map((item) => toPart(item, names, losses)).filter((p): p is GeminiPart => p !== null);
    for (const run of runs(parts)) contents.push({ role: g.role === "user" ? "user" : "model", parts: run });
  }
  return { body: { contents, systemInstruction: { parts: [{ text: system }] } }, losses: losses.sorted() };
}
