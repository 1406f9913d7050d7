import * as z from 'zod';
import { AnyInputItem, AnyOutputItem } from './items';
import { AnyTool, ToolChoice } from './tools';

export const ResponseStatus = z.enum(['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete']);

/**
 * Token counts of one response. `input_tokens` counts the whole input, the cached part included;
 * `input_tokens_details.cached_tokens` is the part served from cache (docs/protocol.md §11).
 */
export const Usage = z
  .looseObject({
    input_tokens: z.int().nonnegative(),
    input_tokens_details: z.looseObject({
      cached_tokens: z.int().nonnegative(),
      cache_write_tokens: z.int().nonnegative().optional(),
    }),
    output_tokens: z.int().nonnegative(),
    output_tokens_details: z.looseObject({ reasoning_tokens: z.int().nonnegative() }).optional(),
    total_tokens: z.int().nonnegative(),
  })
  .refine((usage) => usage.input_tokens_details.cached_tokens <= usage.input_tokens, {
    message: 'cached_tokens cannot exceed input_tokens: input_tokens counts the whole input',
    path: ['input_tokens_details', 'cached_tokens'],
  });

/** Why a response failed, inside the Response object (`response.failed`). */
export const ResponseFailure = z.looseObject({ code: z.string().nullable(), message: z.string() });

/**
 * The Response object (§2.2). The server echoes the request's settings; those are optional here, and
 * `output` may be missing from a WebSocket terminal event, where clients rebuild it from
 * `response.output_item.done` (§2.6).
 */
export const ResponseObject = z.looseObject({
  id: z.string().min(1),
  object: z.literal('response'),
  created_at: z.number(),
  status: ResponseStatus,
  model: z.string(),
  output: z.array(AnyOutputItem).optional(),
  usage: Usage.nullish(),
  error: ResponseFailure.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().optional() }).nullish(),
  previous_response_id: z.string().nullish(),
  instructions: z.union([z.string(), z.array(AnyInputItem)]).nullish(),
  tools: z.array(AnyTool).optional(),
  tool_choice: ToolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  store: z.boolean().nullish(),
  background: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  max_output_tokens: z.int().nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  text: z.looseObject({}).nullish(),
  truncation: z.string().nullish(),
  service_tier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  user: z.string().nullish(),
  completed_at: z.number().nullish(),
});

export type ResponseStatus = z.infer<typeof ResponseStatus>;
export type Usage = z.infer<typeof Usage>;
export type ResponseFailure = z.infer<typeof ResponseFailure>;
export type ResponseObject = z.infer<typeof ResponseObject>;
