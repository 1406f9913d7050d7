import { version } from '../../../package.json';
import { type AnyInputItem, type AnyTool, isCompaction, normalizeContext } from '../../protocol';

// What every request of a session carries, built in one place for the WebSocket warm-up, the WebSocket
// turn and the HTTP turn alike (docs/protocol.md §1.6, docs/endpoints.md).

/** Beta header that Codex sends on the WebSocket upgrade; the API's WebSocket mode is announced with it. */
export const WEBSOCKET_BETA = 'responses_websockets=2026-02-06';

/** `loopwire/0.1.0 (node v20.20.2; linux)`: who is calling, on the upgrade and on every HTTP request. */
export const USER_AGENT = `loopwire/${version} (node ${process.version}; ${process.platform})`;

/**
 * The instructions as the context's first item, a developer message, the way Codex sends them: the warm-up
 * then has input (the API refuses a request with neither input nor `previous_response_id`), and chained
 * turns inherit them with the rest of the context instead of resending them each turn.
 */
export function instructionsItem(instructions: string): AnyInputItem {
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text: instructions }] };
}

/**
 * The whole context of a request: the instructions' item, then the conversation. Once compacted, what the
 * latest compaction stands for goes (its user messages stay), and the instructions are the item the agent
 * sent again after it (a compaction keeps user messages only).
 */
export function contextOf(instructions: string | undefined, items: readonly AnyInputItem[]): readonly AnyInputItem[] {
  if (items.some(isCompaction)) return normalizeContext(items);
  return instructions === undefined || instructions === '' ? items : [instructionsItem(instructions), ...items];
}

/** The headers of every request and upgrade: who is calling, the key, then the caller's own (which win). */
export function requestHeaders(apiKey: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'user-agent': USER_AGENT,
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...extra,
  };
}

export interface BodyParts {
  model: string;
  tools: readonly AnyTool[];
  /** Further fields (reasoning, text, include…), sent as given; the fields below win over them. */
  extra: Record<string, unknown> | undefined;
  store: boolean;
  /** The session id: the API routes requests with one key to the same prompt cache. */
  promptCacheKey: string | undefined;
  input: readonly AnyInputItem[];
  previousResponseId: string | undefined;
  /** `false` for the WebSocket warm-up. */
  generate?: false;
  /** Compact past this many tokens (`context_management`). */
  compactThreshold?: number | undefined;
}

/** One request body, as both transports send it (WebSocket adds `type` and `stream_id`, HTTP `stream`). */
export function requestBody(parts: BodyParts): Record<string, unknown> {
  const { extra } = parts;
  return {
    ...extra,
    model: parts.model,
    tools: parts.tools,
    store: parts.store,
    // Without a server-side store, reasoning can be replayed in a full-context request only from its
    // encrypted content, so it is asked for (unless the caller chose `include` itself).
    ...(parts.store || extra?.include !== undefined ? {} : { include: ['reasoning.encrypted_content'] }),
    ...(parts.promptCacheKey === undefined ? {} : { prompt_cache_key: parts.promptCacheKey }),
    input: parts.input,
    ...(parts.previousResponseId === undefined ? {} : { previous_response_id: parts.previousResponseId }),
    ...(parts.generate === false ? { generate: false } : {}),
    ...(parts.compactThreshold === undefined
      ? {}
      : { context_management: [{ type: 'compaction', compact_threshold: parts.compactThreshold }] }),
  };
}
