import * as z from 'zod';
import {
  AnyMessageContentPart,
  AnyOutputContentPart,
  AnyToolOutputPart,
  ReasoningText,
  SummaryText,
} from './contentParts';
import { openUnion } from './openUnion';

// Conversation items (docs/protocol.md §2.3, §10). Ids may come from the client (Codex sends
// `msg_<uuid>`, `fco_<uuid>`), so they are accepted wherever the API allows one.

export const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);
export const MessageRole = z.enum(['user', 'assistant', 'system', 'developer']);

/** A message in `input`: `type` may be left out, and `content` may be a plain string. */
export const Message = z.looseObject({
  type: z.literal('message').optional(),
  id: z.string().optional(),
  role: MessageRole,
  content: z.union([z.string(), z.array(AnyMessageContentPart)]),
  status: ItemStatus.optional(),
  phase: z.string().nullish(),
});

/**
 * A message the model wrote, as the server sends it in `output`. `phase` is `commentary` for a progress note
 * written between tool calls and `final_answer` for the answer (newer models); `id` and `status` are always
 * sent by the OpenAI API, not by every server that speaks it.
 */
export const OutputMessage = z.looseObject({
  type: z.literal('message'),
  id: z.string().optional(),
  role: z.literal('assistant'),
  status: ItemStatus.optional(),
  content: z.array(AnyOutputContentPart),
  phase: z.string().nullish(),
});

/** What a tool call of either kind has before its input: its ids and the tool's name. */
const callHead = { id: z.string().optional(), call_id: z.string(), name: z.string() };
/** What a tool's answer of either kind has: its ids and the output (text, or parts). */
const callAnswer = {
  id: z.string().nullish(),
  call_id: z.string(),
  output: z.union([z.string(), z.array(AnyToolOutputPart)]),
};

/** The model asks for a function tool; `arguments` is a JSON text, possibly partial while it streams. */
export const FunctionCall = z.looseObject({
  type: z.literal('function_call'),
  ...callHead,
  arguments: z.string(),
  status: ItemStatus.optional(),
});

/** A tool's answer to a `function_call`, matched by `call_id`. */
export const FunctionCallOutput = z.looseObject({
  type: z.literal('function_call_output'),
  ...callAnswer,
  status: ItemStatus.nullish(),
});

/** The model calls a freeform (`custom`) tool with one string, e.g. a whole patch (§10). */
export const CustomToolCall = z.looseObject({
  type: z.literal('custom_tool_call'),
  ...callHead,
  input: z.string(),
  status: ItemStatus.optional(),
});

/** A freeform tool's answer, matched by `call_id`. */
export const CustomToolCallOutput = z.looseObject({ type: z.literal('custom_tool_call_output'), ...callAnswer });

/** A tool call of either kind, as the model writes it in `output`: what a client runs and answers by `call_id`. */
export const CallItem = z.discriminatedUnion('type', [FunctionCall, CustomToolCall]);

/** The model's reasoning: a summary, raw text (open models) or an opaque `encrypted_content` to replay. */
export const Reasoning = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string().optional(),
  summary: z.array(SummaryText),
  content: z.array(ReasoningText).optional(),
  encrypted_content: z.string().nullish(),
  status: ItemStatus.optional(),
});

/**
 * A compaction (docs/protocol.md §3.7): the context before it, less its user messages, folded into one opaque
 * `encrypted_content` that only the server that issued it can read. It is an output item (first in the
 * response's `output`, or last in a `/v1/responses/compact` answer) and goes back in later `input` as received;
 * `id` is always sent by the server and optional on the way back.
 */
export const Compaction = z.looseObject({
  type: z.literal('compaction'),
  id: z.string().nullish(),
  encrypted_content: z.string(),
  created_by: z.string().optional(),
});

/** Everything this version models in a request's `input`. */
export const InputItem = z.discriminatedUnion('type', [
  Message,
  FunctionCall,
  FunctionCallOutput,
  CustomToolCall,
  CustomToolCallOutput,
  Reasoning,
  Compaction,
]);
/** A request's `input` item: a modelled one, or any other type kept as given (newer clients send more). */
export const AnyInputItem = openUnion(InputItem);

/** Everything this version models in a response's `output`. */
export const OutputItem = z.discriminatedUnion('type', [
  OutputMessage,
  FunctionCall,
  CustomToolCall,
  Reasoning,
  Compaction,
]);
/** A response's `output` item: a modelled one, or any other type kept as given (newer servers send more). */
export const AnyOutputItem = openUnion(OutputItem);

export type ItemStatus = z.infer<typeof ItemStatus>;
export type MessageRole = z.infer<typeof MessageRole>;
export type Message = z.infer<typeof Message>;
export type OutputMessage = z.infer<typeof OutputMessage>;
export type FunctionCall = z.infer<typeof FunctionCall>;
export type FunctionCallOutput = z.infer<typeof FunctionCallOutput>;
export type CustomToolCall = z.infer<typeof CustomToolCall>;
export type CustomToolCallOutput = z.infer<typeof CustomToolCallOutput>;
export type CallItem = z.infer<typeof CallItem>;
export type Reasoning = z.infer<typeof Reasoning>;
export type Compaction = z.infer<typeof Compaction>;
export type InputItem = z.infer<typeof InputItem>;
export type AnyInputItem = z.infer<typeof AnyInputItem>;
export type OutputItem = z.infer<typeof OutputItem>;
export type AnyOutputItem = z.infer<typeof AnyOutputItem>;
