// Type-level tests of the provider projections against the providers' own SDK types (checked by
// `npm run typecheck` under tsc --strict, never run; the SDKs are dev dependencies, imported for
// their types only: the package has no runtime dependency). Each projection's body must be
// assignable to the request parameters the official SDK types (`@anthropic-ai/sdk`, `openai`).
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { Content, GenerateContentParameters } from "@google/genai";
import {
  project, projectAnthropic, projectGemini, projectOpenAIChat, projectOpenAIResponses,
  type AnthropicBody, type GeminiBody, type OpenAIChatBody, type OpenAIResponsesBody, type ProjectionInput,
} from "../../src/index.js";

declare const context: ProjectionInput;

type Assignable<A, B> = [A] extends [B] ? true : false;
function expectTrue<T extends true>(_: T): void {}

// Anthropic Messages: the body is a MessageCreateParamsNonStreaming without model and max_tokens.
type AnthropicParams = Omit<Anthropic.MessageCreateParamsNonStreaming, "model" | "max_tokens">;
expectTrue<Assignable<AnthropicBody, AnthropicParams>>(true);
const anthropic: AnthropicParams = projectAnthropic(context).body;
const anthropicRequest: Anthropic.MessageCreateParamsNonStreaming = { ...project(context, "anthropic").body, model: "claude-opus-5", max_tokens: 1024 };
void anthropic;
void anthropicRequest;

// OpenAI Chat Completions: the messages of a ChatCompletionCreateParams.
type ChatMessages = OpenAI.Chat.ChatCompletionCreateParams["messages"];
expectTrue<Assignable<OpenAIChatBody["messages"], ChatMessages>>(true);
const chat: ChatMessages = projectOpenAIChat(context).body.messages;
const chatRequest: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { ...project(context, "openai-chat").body, model: "gpt-5" };
void chat;
void chatRequest;

// OpenAI Responses: the instructions and input of a ResponseCreateParams.
type ResponsesInput = Exclude<OpenAI.Responses.ResponseCreateParams["input"], string | undefined>;
expectTrue<Assignable<OpenAIResponsesBody["input"], ResponsesInput>>(true);
const responses: OpenAI.Responses.ResponseCreateParams = { ...projectOpenAIResponses(context).body, model: "gpt-5" };
const responsesRequest: OpenAI.Responses.ResponseCreateParamsNonStreaming = { ...project(context, "openai-responses").body, model: "gpt-5" };
void responses;
void responsesRequest;

// Gemini: the contents (Content[]) and the system instruction (a Content) of generateContent.
expectTrue<Assignable<GeminiBody["contents"], Content[]>>(true);
expectTrue<Assignable<NonNullable<GeminiBody["systemInstruction"]>, Content>>(true);
const gemini = projectGemini(context).body;
const geminiRequest: GenerateContentParameters = { model: "gemini-3-pro", contents: gemini.contents, config: { systemInstruction: project(context, "gemini").body.systemInstruction } };
void geminiRequest;

// The checks can fail: a body that is not the SDK's shape is refused.
// @ts-expect-error a thinking block needs its signature
const unsigned: Anthropic.ContentBlockParam = { type: "thinking", thinking: "x" };
// @ts-expect-error a tool message's content holds no image
const toolImage: OpenAI.Chat.ChatCompletionToolMessageParam = { role: "tool", tool_call_id: "c", content: [{ type: "image_url", image_url: { url: "u" } }] };
void unsigned;
void toolImage;
