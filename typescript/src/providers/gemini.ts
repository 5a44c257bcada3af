/**
 * Gemini `generateContent`: a context as the `systemInstruction` and `contents` of a request body.
 * The mapping of the reference's gateway client (Prism-Shadow/AgentHub
 * `src_ts/src/gemini3/client.ts`, `transformUniMessageToModelInput`):
 *
 * - each run of one role is one content, `user` or `model`, one part per payload;
 * - `fidelity.signature` is the part's `thoughtSignature` (text, thinking and function calls);
 *   `thinking` is a text part marked `thought`;
 * - `tool_call` is a `functionCall` with its arguments parsed; `tool_call_output` a
 *   `functionResponse` named by the tool-call id with its `#n` suffix stripped (Gemini pairs a
 *   response with its call by the function name, which the gateway made the id), `{ result }` its
 *   output, its images inline parts;
 * - `data:` URLs and `inline_data` are `inlineData`; an image by any other URL would have to be
 *   fetched (the gateway does), which a projection does not: `image-url-not-supported`;
 * - every other `fidelity` key and `inline_thinking`: losses.
 *
 * @module
 */

import type { ModelPayload } from "../generated/types.js";
import { Losses, convertRuns, dataUrl, fidelityOf, parseArguments, stripToolCallIdSuffix, unsupported, type Projection, type ProjectionInput } from "./types.js";

export interface GeminiBlob {
  mimeType: string;
  data: string;
}
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: { result: string }; parts?: { inlineData: GeminiBlob }[] };
}
export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/** The request body of `generateContent` (REST) without the model. */
export interface GeminiBody {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

function signed(part: GeminiPart, index: number, fidelity: Record<string, unknown>, losses: Losses): GeminiPart {
  const signature = fidelity.signature;
  losses.fidelity(index, fidelity, typeof signature === "string" ? ["signature"] : []);
  return typeof signature === "string" ? { ...part, thoughtSignature: signature } : part;
}

function part(index: number, p: ModelPayload, losses: Losses): GeminiPart | null {
  const fidelity = "fidelity" in p ? fidelityOf(p) : {};
  switch (p.type) {
    case "text":
      return signed({ text: p.text }, index, fidelity, losses);
    case "thinking":
      return signed({ text: p.thinking, thought: true }, index, fidelity, losses);
    case "tool_call": {
      const args = parseArguments(p.arguments);
      if ("reason" in args) losses.add(index, "/payload/arguments", args.reason);
      return signed({ functionCall: { name: p.name, args: "value" in args ? args.value : {} } }, index, fidelity, losses);
    }
    case "tool_call_output": {
      const images: { inlineData: GeminiBlob }[] = [];
      (p.images ?? []).forEach((url, k) => {
        const d = dataUrl(url);
        if (d === null) losses.add(index, `/payload/images/${k}`, "image-url-not-supported");
        else images.push({ inlineData: { mimeType: d.mediaType, data: d.data } });
      });
      const response = { name: stripToolCallIdSuffix(p.tool_call_id), response: { result: p.output } };
      return { functionResponse: images.length > 0 ? { ...response, parts: images } : response };
    }
    case "image_url": {
      const d = dataUrl(p.image_url);
      if (d === null) losses.add(index, "/payload/image_url", "image-url-not-supported");
      return d === null ? null : { inlineData: { mimeType: d.mediaType, data: d.data } };
    }
    case "inline_data":
      losses.fidelity(index, fidelity);
      return { inlineData: { mimeType: p.mime_type, data: p.data } };
    default:
      return unsupported(index, p, losses);
  }
}

/** The Gemini `generateContent` request body of a context. */
export function projectGemini(input: ProjectionInput): Projection<GeminiBody> {
  const losses = new Losses();
  const runs = convertRuns(input, losses, (index, p) => part(index, p, losses));
  const contents: GeminiContent[] = runs.map(({ role, items }) => ({ role: role === "user" ? "user" : "model", parts: items }));
  const system = input.config.system_prompt;
  return { body: system === "" ? { contents } : { systemInstruction: { parts: [{ text: system }] }, contents }, losses: losses.list };
}
