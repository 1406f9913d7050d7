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
    // The OpenAI API always sends the details and the total; gateways and local servers often leave them out.
    input_tokens_details: z
      .looseObject({
        cached_tokens: z.int().nonnegative().optional(),
        cache_write_tokens: z.int().nonnegative().optional(),
      })
      .nullish(),
    output_tokens: z.int().nonnegative(),
    output_tokens_details: z.looseObject({ reasoning_tokens: z.int().nonnegative().optional() }).nullish(),
    total_tokens: z.int().nonnegative().optional(),
  })
  .refine((usage) => (usage.input_tokens_details?.cached_tokens ?? 0) <= usage.input_tokens, {
    message: 'cached_tokens cannot exceed input_tokens: input_tokens counts the whole input',
    path: ['input_tokens_details', 'cached_tokens'],
  });

/** Why a response failed, inside the Response object (`response.failed`). */
export const ResponseFailure = z.looseObject({ code: z.string().nullable(), message: z.string() });

/**
 * The Response object (§2.2). A client needs its `id`, `status`, `output` and, where present, `usage`; every
 * other field is optional (the OpenAI API sends them all, gateways and local servers that speak the Responses
 * API leave some out) and kept as given. `output` may be missing from a WebSocket terminal event, where
 * clients rebuild it from `response.output_item.done` (§2.6).
 */
export const ResponseObject = z.looseObject({
  id: z.string().min(1),
  object: z.literal('response').optional(),
  created_at: z.number().nullish(),
  status: ResponseStatus,
  model: z.string().nullish(),
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
