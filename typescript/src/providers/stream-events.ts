/**
 * The streaming events {@link fromStream} reads, typed as the providers' SDKs type them: each
 * interface names the fields the reader looks at, with the SDK's types (optional where an event
 * may lack them). `test/types/provider-streams.test.ts` holds every SDK event type assignable to
 * these and every field named here present in the SDK's type (under tsc --strict): an SDK's
 * events are passed as they come. At run time every field is still read as input (a wrong shape
 * is a `StreamError`, never a crash).
 *
 * @module
 */

/** An Anthropic Messages streaming event (`RawMessageStreamEvent` of `@anthropic-ai/sdk`). */
export interface AnthropicStreamEvent {
  readonly type: string;
  readonly message?: { readonly usage?: AnthropicUsage | null };
  readonly content_block?: { readonly type: string; readonly id?: string; readonly name?: string; readonly data?: string };
  readonly delta?: {
    readonly type?: string;
    readonly text?: string;
    readonly thinking?: string;
    readonly partial_json?: string;
    readonly signature?: string;
    readonly stop_reason?: string | null;
  };
  readonly usage?: AnthropicUsage & { readonly output_tokens_details?: { readonly thinking_tokens?: number | null } | null };
}

/** The token counts of an Anthropic message (`Usage`, `MessageDeltaUsage`). */
export interface AnthropicUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

/** An OpenAI Chat Completions chunk (`ChatCompletionChunk` of `openai`). `reasoning_content` and
 * `reasoning` are the fields compatible servers add (the SDK does not declare them). */
export interface OpenAIChatChunk {
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly tool_calls?: readonly { readonly id?: string; readonly function?: { readonly name?: string; readonly arguments?: string } }[];
    };
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: {
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
    readonly completion_tokens_details?: { readonly reasoning_tokens?: number } | null;
  } | null;
}

/** An OpenAI Responses streaming event (`ResponseStreamEvent` of `openai`). */
export interface OpenAIResponsesEvent {
  readonly type: string;
  readonly delta?: unknown;
  readonly item?: {
    readonly type: string;
    readonly id?: string | null;
    readonly name?: string;
    readonly call_id?: string | null;
    readonly phase?: string | null;
    readonly summary?: readonly unknown[];
    readonly encrypted_content?: string | null;
  };
  readonly response?: {
    readonly status?: string | null;
    readonly usage?: {
      readonly input_tokens?: number;
      readonly output_tokens?: number;
      readonly input_tokens_details?: { readonly cached_tokens?: number } | null;
      readonly output_tokens_details?: { readonly reasoning_tokens?: number } | null;
    } | null;
  };
}

/** A Gemini `generateContent` stream chunk (`GenerateContentResponse` of `@google/genai`, the REST
 * JSON). The reader also takes the snake_case spelling of a Python SDK's `model_dump()`. */
export interface GeminiChunk {
  readonly candidates?: readonly {
    readonly content?: { readonly parts?: readonly GeminiStreamPart[] };
    readonly finishReason?: string;
  }[];
  readonly usageMetadata?: {
    readonly promptTokenCount?: number;
    readonly cachedContentTokenCount?: number;
    readonly thoughtsTokenCount?: number;
    readonly candidatesTokenCount?: number;
  };
}

/** One part of a Gemini chunk's content. */
export interface GeminiStreamPart {
  readonly text?: string;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly functionCall?: { readonly id?: string; readonly name?: string; readonly args?: Record<string, unknown> };
  readonly inlineData?: { readonly mimeType?: string; readonly data?: string };
}

/** The streaming events of each provider. */
export interface ProviderStreamEvents {
  anthropic: AnthropicStreamEvent;
  "openai-chat": OpenAIChatChunk;
  "openai-responses": OpenAIResponsesEvent;
  gemini: GeminiChunk;
}
