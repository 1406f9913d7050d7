import type { AnyInputItem, AnyOutputItem, AnyTool, ResponseObject } from '../../protocol';
import type { AgentEventSink } from '../events';
import type { ProxySettings } from './proxy';
import type { PromptStart } from '../timing/promptStart';
import type { SteerClient } from './steerClient';
import type { SteeredSegment } from './successorFollower';

// What a model transport is given and what it gives back: its options, with their defaults, and one
// turn's request and outcome (modelTransport.ts does the work).

export type TransportMode = 'ws' | 'http' | 'auto';

export interface TransportOptions {
  /** Base URL as `loopwire-server` prints it: `http://127.0.0.1:PORT/v1` (or `https://api.openai.com/v1`). */
  endpoint: string;
  apiKey?: string;
  transport: TransportMode;
  /** `false` by default: nothing kept server-side (zero-data-retention accounts work). */
  store?: boolean;
  /**
   * Chain turns with `previous_response_id` where the rule allows (default). `false` sends the full
   * context every turn: the benchmark's `ws-full` mode, which separates the socket's effect from the cache's.
   */
  chain?: boolean;
  /** Rotate a socket older than this, between turns (the API closes them at 60 minutes). */
  rotateAfterMs?: number;
  /** A response with no event for this long is abandoned and resent (HTTP's only guard: a stream there cannot be pinged). */
  idleTimeoutMs?: number;
  /** While a response runs on the socket, a ping this often (wsChannel.ts's heartbeat). */
  pingIntervalMs?: number;
  /** A ping unanswered this long ends the socket; the turn is resent on a new one. */
  pongTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Requests per turn, the first included. */
  maxAttempts?: number;
  /** In `auto`, WebSocket failures in a row before the session moves to HTTP for good. */
  wsFailuresBeforeFallback?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Extra headers on every request and upgrade (a gateway's `api-key`); they win over Loopwire's own. */
  headers?: Record<string, string>;
  /**
   * The proxy for this endpoint (proxy.ts): the environment's (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) when not
   * given, VS Code's `http.proxy` when set there; `{off: true}` for the embedded backend.
   */
  proxy?: ProxySettings;
  emit: AgentEventSink;
}

/** What one turn asks the model. `items` is the whole conversation so far, in order. */
export interface TurnRequest {
  model: string;
  instructions?: string;
  tools: readonly AnyTool[];
  items: readonly AnyInputItem[];
  /** A WebSocket lane (`stream_id`) for a conversation that runs beside another on the same socket. */
  lane?: string;
  /** Further request fields (reasoning, include, max_output_tokens…), sent as given. */
  extra?: Record<string, unknown>;
  /**
   * The conversation's id, sent as `prompt_cache_key` on every request, so that full-context requests
   * (HTTP, a new socket) are routed to the prompt cache that holds this conversation's prefix.
   */
  promptCacheKey?: string;
  /** Ask the server to compact past this many tokens of context (`context_management`); absent: never. */
  compactThreshold?: number;
  /**
   * Where the turn's own events go — its deltas, a discarded output, a retry: the conversation's sink, which
   * may not be the session's (the extension's chat panel listens to its conversation only). The session's
   * sink when not given; the socket's and the transport's events always go there.
   */
  emit?: AgentEventSink;
  /** Where the model steers natively over this session's socket: the agent's steering client (steerClient.ts). */
  steering?: SteerClient;
  /** A prompt's first request: where its start's time goes (promptStart.ts), marked at the body and the socket. */
  start?: PromptStart;
}

export interface TurnOutcome {
  response: ResponseObject;
  output: AnyOutputItem[];
  transport: 'ws' | 'http';
  chained: boolean;
  attempts: number;
  itemsSent: number;
  bytesSent: number;
  bytesReceived: number;
  /** performance.now() stamps: the first request on the wire, and the answer's first event, first delta, end. */
  firstSentAt: number;
  sentAt: number;
  firstEventAt: number;
  firstDeltaAt: number | undefined;
  completedAt: number;
  /** Responses of this turn that steers ended, before `response` (native steering; successorFollower.ts). */
  steered?: SteeredSegment[];
}

/** The options with every default filled in. */
export type ResolvedTransportOptions = Required<Omit<TransportOptions, 'apiKey' | 'headers' | 'proxy'>> &
  Pick<TransportOptions, 'apiKey' | 'headers' | 'proxy'>;

export function withDefaults(options: TransportOptions): ResolvedTransportOptions {
  return {
    store: false,
    chain: true,
    rotateAfterMs: 55 * 60 * 1000,
    idleTimeoutMs: 120_000,
    // A silent network is noticed within 5 + 10 s and the turn resent: well inside 20 s.
    pingIntervalMs: 5_000,
    pongTimeoutMs: 10_000,
    connectTimeoutMs: 15_000,
    maxAttempts: 8,
    wsFailuresBeforeFallback: 3,
    backoffBaseMs: 250,
    backoffMaxMs: 8_000,
    ...options,
  };
}
