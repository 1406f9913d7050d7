import type { AnyOutputItem, ResponseObject, ResponseRequest, ResponseStatus, Usage } from '../protocol';

/** The Response object (docs/protocol.md §2.2) for `request`, echoing its settings as the API does. */
export function responseObject(
  id: string,
  createdAt: number,
  request: ResponseRequest,
  status: ResponseStatus,
  output: AnyOutputItem[],
  usage: Usage | null,
  extra: Partial<ResponseObject> = {},
): ResponseObject {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: request.model ?? 'loopwire-scripted',
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    service_tier: 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
    prompt_cache_key: request.prompt_cache_key ?? null,
    ...extra,
  };
}

/** Usage with `input_tokens` the whole input and `cached_tokens` the part served from cache (docs/protocol.md §11). */
export function usage(inputTokens: number, cachedTokens: number, outputTokens: number): Usage {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: Math.min(cachedTokens, inputTokens) },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}
