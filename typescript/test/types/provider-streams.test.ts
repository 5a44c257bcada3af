// Type-level tests of the way back (fromStream) against the providers' own SDK types (checked by
// `npm run typecheck` under tsc --strict, never run; the SDKs are dev dependencies, imported for
// their types only). Every streaming event an official SDK types must be assignable to the event
// type fromStream takes, and every field the reader looks at must be a field of the SDK's type.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { Blob, Candidate, Content, FunctionCall, GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from "@google/genai";
import {
  fromStream, type AnthropicStreamEvent, type AnthropicUsage, type GeminiChunk, type GeminiStreamPart, type OpenAIChatChunk,
  type OpenAIResponsesEvent,
} from "../../src/index.js";

type Assignable<A, B> = [A] extends [B] ? true : false;
function expectTrue<T extends true>(_: T): void {}
/** Every field of any member of the union `U`. */
type Keys<U> = U extends unknown ? keyof U : never;
/** True when every field of `Ours` (what the reader looks at) is a field of a member of `Sdk`
 * (a union of the SDK's types); else the fields that are not. */
type Known<Ours, Sdk> = [Exclude<keyof Ours, Keys<Sdk>>] extends [never] ? true : Exclude<keyof Ours, Keys<Sdk>>;

type Of<T, K extends keyof NonNullable<T>> = NonNullable<NonNullable<T>[K]>;
type Item<T> = T extends readonly (infer E)[] ? E : never;

// Anthropic Messages: RawMessageStreamEvent.
expectTrue<Assignable<Anthropic.RawMessageStreamEvent, AnthropicStreamEvent>>(true);
declare const anthropicEvents: Anthropic.RawMessageStreamEvent[];
void fromStream("anthropic", anthropicEvents, { timestamp: "2026-09-14T03:00:00.000Z" });
type A = AnthropicStreamEvent;
expectTrue<Known<A, Anthropic.RawMessageStartEvent | Anthropic.RawContentBlockStartEvent | Anthropic.RawContentBlockDeltaEvent | Anthropic.RawMessageDeltaEvent>>(true);
expectTrue<Known<Of<A, "message">, Anthropic.Message>>(true);
expectTrue<Known<AnthropicUsage, Anthropic.Usage | Anthropic.MessageDeltaUsage>>(true);
expectTrue<Known<Of<A, "content_block">, Anthropic.ToolUseBlock | Anthropic.RedactedThinkingBlock>>(true);
expectTrue<Known<Of<A, "delta">, Anthropic.TextDelta | Anthropic.ThinkingDelta | Anthropic.InputJSONDelta | Anthropic.SignatureDelta | Anthropic.RawMessageDeltaEvent["delta"]>>(true);
expectTrue<Known<Of<A, "usage">, Anthropic.MessageDeltaUsage>>(true);

// OpenAI Chat Completions: ChatCompletionChunk (`reasoning_content`, `reasoning`: the fields
// compatible servers add, which the SDK does not declare).
expectTrue<Assignable<OpenAI.Chat.ChatCompletionChunk, OpenAIChatChunk>>(true);
declare const chatChunks: OpenAI.Chat.ChatCompletionChunk[];
void fromStream("openai-chat", chatChunks);
type C = OpenAIChatChunk;
type Choice = Item<Of<C, "choices">>;
type ToolCall = Item<Of<Of<Choice, "delta">, "tool_calls">>;
expectTrue<Known<C, OpenAI.Chat.ChatCompletionChunk>>(true);
expectTrue<Known<Choice, OpenAI.Chat.ChatCompletionChunk.Choice>>(true);
expectTrue<Known<Omit<Of<Choice, "delta">, "reasoning_content" | "reasoning">, OpenAI.Chat.ChatCompletionChunk.Choice.Delta>>(true);
expectTrue<Known<ToolCall, OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall>>(true);
expectTrue<Known<Of<ToolCall, "function">, OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall.Function>>(true);
expectTrue<Known<Of<C, "usage">, OpenAI.CompletionUsage>>(true);
expectTrue<Known<Of<Of<C, "usage">, "prompt_tokens_details">, OpenAI.CompletionUsage.PromptTokensDetails>>(true);
expectTrue<Known<Of<Of<C, "usage">, "completion_tokens_details">, OpenAI.CompletionUsage.CompletionTokensDetails>>(true);

// OpenAI Responses: ResponseStreamEvent.
expectTrue<Assignable<OpenAI.Responses.ResponseStreamEvent, OpenAIResponsesEvent>>(true);
declare const responsesEvents: OpenAI.Responses.ResponseStreamEvent[];
void fromStream("openai-responses", responsesEvents);
type R = OpenAIResponsesEvent;
expectTrue<Known<R, OpenAI.Responses.ResponseTextDeltaEvent | OpenAI.Responses.ResponseOutputItemAddedEvent | OpenAI.Responses.ResponseCompletedEvent>>(true);
expectTrue<Known<Of<R, "item">, OpenAI.Responses.ResponseFunctionToolCall | OpenAI.Responses.ResponseOutputMessage | OpenAI.Responses.ResponseReasoningItem>>(true);
expectTrue<Known<Of<R, "response">, OpenAI.Responses.Response>>(true);
expectTrue<Known<Of<Of<R, "response">, "usage">, OpenAI.Responses.ResponseUsage>>(true);
expectTrue<Known<Of<Of<Of<R, "response">, "usage">, "input_tokens_details">, OpenAI.Responses.ResponseUsage.InputTokensDetails>>(true);
expectTrue<Known<Of<Of<Of<R, "response">, "usage">, "output_tokens_details">, OpenAI.Responses.ResponseUsage.OutputTokensDetails>>(true);

// Gemini: GenerateContentResponse (the REST JSON spelling).
expectTrue<Assignable<GenerateContentResponse, GeminiChunk>>(true);
declare const geminiChunks: GenerateContentResponse[];
void fromStream("gemini", geminiChunks);
type G = GeminiChunk;
type GCandidate = Item<Of<G, "candidates">>;
expectTrue<Known<G, GenerateContentResponse>>(true);
expectTrue<Known<GCandidate, Candidate>>(true);
expectTrue<Known<Of<GCandidate, "content">, Content>>(true);
expectTrue<Known<GeminiStreamPart, Part>>(true);
expectTrue<Known<Of<GeminiStreamPart, "functionCall">, FunctionCall>>(true);
expectTrue<Known<Of<GeminiStreamPart, "inlineData">, Blob>>(true);
expectTrue<Known<Of<G, "usageMetadata">, GenerateContentResponseUsageMetadata>>(true);

// The checks can fail: another provider's events are refused, and a field the SDK lacks is refused.
// @ts-expect-error Chat Completions chunks are not Messages events
void fromStream("anthropic", chatChunks);
// @ts-expect-error a field the SDK's type lacks
expectTrue<Known<{ partialJson?: string }, Anthropic.InputJSONDelta>>(true);
