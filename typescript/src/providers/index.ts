/**
 * Provider projections: a restored context as a provider's request body, with what it could not
 * carry (`project(restore(root, id), "anthropic")`), and the way back: a provider's stream to
 * OmniMessages (`fromStream("anthropic", events)`). One module per provider and direction;
 * `types.ts` holds what the projections share, `translate.ts` what the way back does.
 *
 * @module
 */

import { projectAnthropic, type AnthropicBody } from "./anthropic.js";
import { projectGemini, type GeminiBody } from "./gemini.js";
import { projectOpenAIChat, type OpenAIChatBody } from "./openai-chat.js";
import { projectOpenAIResponses, type OpenAIResponsesBody } from "./openai-responses.js";
import type { Projection, ProjectionInput, Provider } from "./types.js";

export { projectAnthropic, REDACTED_THINKING, type AnthropicBlock, type AnthropicBody, type AnthropicMessage } from "./anthropic.js";
export { projectGemini, type GeminiBody, type GeminiContent, type GeminiPart } from "./gemini.js";
export { projectOpenAIChat, type ChatAssistantMessage, type ChatMessage, type OpenAIChatBody } from "./openai-chat.js";
export { projectOpenAIResponses, type OpenAIResponsesBody, type ResponsesItem } from "./openai-responses.js";
export { fromStream, MAX_STREAM_BYTES, StreamError, type FromStreamOptions } from "./from-stream.js";
export type { AnthropicStreamEvent, AnthropicUsage, GeminiChunk, GeminiStreamPart, OpenAIChatChunk, OpenAIResponsesEvent, ProviderStreamEvents } from "./stream-events.js";
export { PROVIDERS, type Loss, type Projection, type ProjectionInput, type Provider } from "./types.js";

/** The request body of each provider. */
export interface ProviderBodies {
  anthropic: AnthropicBody;
  "openai-chat": OpenAIChatBody;
  "openai-responses": OpenAIResponsesBody;
  gemini: GeminiBody;
}

/** The context's request body for `provider`, and its losses in context order. */
export function project<P extends Provider>(context: ProjectionInput, provider: P): Projection<ProviderBodies[P]>;
export function project(context: ProjectionInput, provider: Provider): Projection {
  switch (provider) {
    case "anthropic":
      return projectAnthropic(context);
    case "openai-chat":
      return projectOpenAIChat(context);
    case "openai-responses":
      return projectOpenAIResponses(context);
    case "gemini":
      return projectGemini(context);
    default:
      throw new TypeError(`unknown provider ${JSON.stringify(provider)}`);
  }
}
