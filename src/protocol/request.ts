import * as z from 'zod';
import { AnyInputItem } from './items';
import { AnyTool, ToolChoice } from './tools';

/** A WebSocket lane name: 1-256 of `[A-Za-z0-9_.-]` (docs/protocol.md §1.3). */
export const StreamId = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,256}$/, { message: 'must be 1-256 characters of A-Z, a-z, 0-9, "_", "." or "-"' });

/**
 * One entry of `context_management` (docs/protocol.md §3.7). The API supports one `type`, `compaction`:
 * when the rendered context passes `compact_threshold` tokens, the response's output begins with a
 * `compaction` item and the model answers from the compacted context. `type` is any string here, as in the
 * SDK's type; a server refuses the ones it does not support.
 */
export const ContextManagement = z.looseObject({
  type: z.string(),
  /** Tokens; a number as in the SDK's type (the API takes an integer, and a server refuses a fraction). */
  compact_threshold: z.number().positive().nullish(),
});

/**
 * The body of `POST /v1/responses`, and of the WebSocket `response.create` event less its `type`
 * (§1.5). Loose: fields this version does not model are kept and passed over, since newer clients send
 * more. Transport rules (`stream` ignored and `background` refused over WebSocket, `generate` and
 * `stream_id` WebSocket-only) belong to whoever serves the request, not to the shape.
 */
export const ResponseRequest = z.looseObject({
  model: z.string().min(1).optional(),
  input: z.union([z.string(), z.array(AnyInputItem)]).optional(),
  instructions: z.string().nullish(),
  tools: z.array(AnyTool).nullish(),
  tool_choice: ToolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  background: z.boolean().nullish(),
  /** WebSocket only: `false` prepares state (a chainable id) without generating output (§1.6). */
  generate: z.boolean().optional(),
  /** WebSocket only: the lane this request runs on; lanes run concurrently, each FIFO (§1.4). */
  stream_id: StreamId.optional(),
  reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  text: z
    .looseObject({ format: z.looseObject({ type: z.string() }).optional(), verbosity: z.string().nullish() })
    .nullish(),
  include: z.array(z.string()).nullish(),
  prompt_cache_key: z.string().nullish(),
  /** Per-request metadata for the server (Codex sends turn metadata here, since frames have no headers). */
  client_metadata: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  max_output_tokens: z.int().positive().nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  service_tier: z.string().nullish(),
  user: z.string().optional(),
  /** Server-side compaction: `[{type: "compaction", compact_threshold: N}]` (§3.7). */
  context_management: z.array(ContextManagement).nullish(),
});

export type StreamId = z.infer<typeof StreamId>;
export type ContextManagement = z.infer<typeof ContextManagement>;
export type ResponseRequest = z.infer<typeof ResponseRequest>;
