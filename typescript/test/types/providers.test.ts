// Type-level tests of the provider projections against the providers' own SDK types (checked by
// `npm run typecheck` under tsc --strict, never run; the SDKs are dev dependencies, imported for
// their types only: the package has no runtime dependency). Each projection's body must be
// assignable to the request parameters the official SDK types (`@anthropic-ai/sdk`, `openai`).
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { project, projectAnthropic, projectOpenAIChat, type AnthropicBody, type OpenAIChatBody, type ProjectionInput } from "../../src/index.js";

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

// The checks can fail: a body that is not the SDK's shape is refused.
// @ts-expect-error a thinking block needs its signature
const unsigned: Anthropic.ContentBlockParam = { type: "thinking", thinking: "x" };
// @ts-expect-error a tool message's content holds no image
const toolImage: OpenAI.Chat.ChatCompletionToolMessageParam = { role: "tool", tool_call_id: "c", content: [{ type: "image_url", image_url: { url: "u" } }] };
void unsigned;
void toolImage;
