import * as z from 'zod';

// The error shapes of docs/protocol.md §4: the API error object, the HTTP error body, and
// the two `error` events of a stream.

/** The API's error object: the body of an HTTP error, and the `error` of a nested WebSocket error event. */
export const ApiError = z.looseObject({
  // The API always sends all four; gateways and local servers often send a `message` alone.
  type: z.string().optional(),
  code: z.string().nullish(),
  message: z.string(),
  param: z.string().nullish(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** An HTTP error response's body: `{"error": {...}}` with the status on the response line (§4.3). */
export const HttpErrorBody = z.looseObject({ error: ApiError });

/**
 * A request-level WebSocket error (§4.1 shape 1): the request was refused before a response existed;
 * `status` is the HTTP status it stands for. The socket stays open, except after
 * `websocket_connection_limit_reached`.
 */
export const WsErrorEvent = z.looseObject({
  type: z.literal('error'),
  status: z.int().optional(),
  /** Codex accepts this in place of `status`; some servers send it. */
  status_code: z.int().optional(),
  error: ApiError,
  sequence_number: z.int().nonnegative().optional(),
  stream_id: z.string().optional(),
  /** The ChatGPT backend sends rate-limit headers here too; Codex reads them from either place. */
  headers: z.record(z.string(), z.string()).optional(),
});

/** A mid-stream error (§4.1 shape 2), flat as in SSE (`event: error`). */
export const StreamErrorEvent = z.looseObject({
  type: z.literal('error'),
  code: z.string().nullish(),
  message: z.string(),
  param: z.string().nullish(),
  sequence_number: z.int().nonnegative().optional(),
  stream_id: z.string().optional(),
});

/** An `error` event of either shape; clients must accept both (§4.1). */
export const ErrorEvent = z.union([WsErrorEvent, StreamErrorEvent]);

/** Error codes docs/protocol.md names, with the meaning a client acts on (§4.2). */
export const ErrorCode = {
  /** The id is not in this connection's cache (nor stored): resend the full context, unchained. */
  previousResponseNotFound: 'previous_response_not_found',
  /** The connection is at its age limit (60 minutes): open a new socket. */
  connectionLimitReached: 'websocket_connection_limit_reached',
  /** More than 32 named lanes on one connection. */
  streamLimitReached: 'websocket_stream_limit_reached',
  /** A `stream_id` outside `[A-Za-z0-9_.-]{1,256}`. */
  invalidStreamId: 'invalid_stream_id',
  /** A replayed reasoning item's `encrypted_content` the server did not issue (or issued for another item). */
  invalidEncryptedContent: 'invalid_encrypted_content',
  /**
   * The rendered input is larger than the model's context window (400, `param: "input"`): compact the context
   * (`context_management`, or `POST /v1/responses/compact`) or send less, then retry (§3.7).
   */
  contextLengthExceeded: 'context_length_exceeded',
  rateLimitExceeded: 'rate_limit_exceeded',
  serverError: 'server_error',
} as const;

/** The `type` of an API error object, by HTTP status class (§4.3). */
export const ErrorType = {
  invalidRequest: 'invalid_request_error',
  authentication: 'authentication_error',
  rateLimit: 'rate_limit_error',
  server: 'server_error',
} as const;

/** The exact refusal of an unknown `previous_response_id` (§3.3); over HTTP its `error` is the 400 body. */
export function previousResponseNotFound(responseId: string): WsErrorEvent {
  return {
    type: 'error',
    status: 400,
    error: {
      type: ErrorType.invalidRequest,
      code: ErrorCode.previousResponseNotFound,
      message: `Previous response with id '${responseId}' not found.`,
      param: 'previous_response_id',
    },
  };
}

/**
 * The refusal of a request whose rendered input exceeds the model's context window (§3.7), in the API's
 * words; over HTTP its `error` is the 400 body. The socket stays open.
 */
export function contextLengthExceeded(): WsErrorEvent {
  return {
    type: 'error',
    status: 400,
    error: {
      type: ErrorType.invalidRequest,
      code: ErrorCode.contextLengthExceeded,
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      param: 'input',
    },
  };
}

/** The refusal of work on a connection past its age limit (§4.2, the wording of Codex's fixture). */
export function connectionLimitReached(limitMinutes = 60): WsErrorEvent {
  return {
    type: 'error',
    status: 400,
    error: {
      type: ErrorType.invalidRequest,
      code: ErrorCode.connectionLimitReached,
      message: `Responses websocket connection limit reached (${limitMinutes} minutes). Create a new websocket connection to continue.`,
      param: null,
    },
  };
}

/** What a client needs from an `error` event of either shape, or from an HTTP error answer. */
export interface ErrorDetails {
  status: number | undefined;
  type: string | undefined;
  code: string | null;
  message: string;
  param: string | null;
  /** The answer's headers (HTTP) or the frame's `headers` (WebSocket), lower-cased: the server's retry delay. */
  headers?: Record<string, string>;
}

/** True for the nested (request-level) shape; false for the flat mid-stream one. */
export function isWsErrorEvent(event: ErrorEvent): event is WsErrorEvent {
  return typeof event.error === 'object' && event.error !== null;
}

/** The status, code, message and param of an `error` event, whichever of the two shapes it has. */
export function errorDetails(event: ErrorEvent): ErrorDetails {
  if (isWsErrorEvent(event)) {
    const { type, code = null, message, param = null } = event.error;
    const headers = lowerCaseKeys({ ...event.error.headers, ...event.headers });
    return {
      status: event.status ?? event.status_code,
      type,
      code,
      message,
      param,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  return {
    status: undefined,
    type: undefined,
    code: event.code ?? null,
    message: event.message,
    param: event.param ?? null,
  };
}

/** `headers` with lower-case names, as HTTP treats them. */
export function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

export type ApiError = z.infer<typeof ApiError>;
export type HttpErrorBody = z.infer<typeof HttpErrorBody>;
export type WsErrorEvent = z.infer<typeof WsErrorEvent>;
export type StreamErrorEvent = z.infer<typeof StreamErrorEvent>;
export type ErrorEvent = z.infer<typeof ErrorEvent>;
