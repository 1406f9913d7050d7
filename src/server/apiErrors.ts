import {
  type ApiError,
  ErrorCode,
  ErrorType,
  type WireError,
  type WsErrorEvent,
  contextLengthExceeded,
} from '../protocol';

/** An error the server answers with: the HTTP status it stands for and the API's error object. */
export interface Refusal {
  status: number;
  error: ApiError;
}

function refusal(
  status: number,
  type: string,
  code: string | null,
  message: string,
  param: string | null = null,
): Refusal {
  return { status, error: { type, code, message, param } };
}

export const refusals = {
  invalidBody: (wire: WireError): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      wire.code === 'invalid_json' ? 'invalid_json' : 'invalid_value',
      wire.message,
      wire.param,
    ),
  missingModel: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'missing_required_parameter',
      "Missing required parameter: 'model'.",
      'model',
    ),
  /** A generating request with nothing to answer: no `input` and no `previous_response_id`. */
  missingInput: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'missing_required_parameter',
      "Missing required parameter: 'input'.",
      'input',
    ),
  /** The same with `input: []`, in the API's words for an empty array. */
  emptyInput: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'empty_array',
      "Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'input',
    ),
  /** A tool output whose `call_id` answers no call of its kind earlier in the context (the API's wording). */
  noToolCall: (kind: 'function_call_output' | 'custom_tool_call_output', callId: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      null,
      `No tool call found for ${kind === 'function_call_output' ? 'function call output' : 'custom tool call output'} with call_id ${callId}.`,
      'input',
    ),
  /** A generating request whose context holds a call with no output after it (the API's words). */
  noToolOutput: (kind: 'function_call' | 'custom_tool_call', callId: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      null,
      `No tool output found for ${kind === 'function_call' ? 'function call' : 'custom tool call'} ${callId}.`,
      'input',
    ),
  /**
   * A replayed reasoning item's `encrypted_content` that this server did not issue, or issued for another
   * item. The API names the item by id, or by the content cut short when the item has none; `param` is null.
   */
  invalidEncryptedContent: (itemId: string | undefined, content: string, reason: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      ErrorCode.invalidEncryptedContent,
      `The encrypted content ${itemId === undefined ? abbreviate(content) : `for item ${itemId}`} could not be verified. Reason: ${reason}`,
    ),
  /** An `input_image` whose data URL is malformed; `problem` ends the API's sentence ("but got …"). */
  invalidImageUrl: (param: string, problem: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'invalid_value',
      `Invalid '${param}'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got ${problem}`,
      param,
    ),
  /** The rendered input is larger than the context window (docs/protocol.md §3.7), in the API's words. */
  contextLengthExceeded: (): Refusal => {
    const event = contextLengthExceeded();
    return { status: event.status ?? 400, error: event.error };
  },
  /** A `context_management` entry whose `type` is not `compaction`, the only one the API supports. */
  unsupportedContextManagement: (index: number, type: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'invalid_value',
      `Invalid value: '${type}'. Supported values are: 'compaction'.`,
      `context_management[${index}].type`,
    ),
  /** A `compact_threshold` that is no whole number (the API's type is an integer). */
  fractionalThreshold: (index: number): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'invalid_value',
      `Invalid type for 'context_management[${index}].compact_threshold': expected an integer, but got a decimal instead.`,
      `context_management[${index}].compact_threshold`,
    ),
  unauthorized: (): Refusal =>
    refusal(
      401,
      ErrorType.invalidRequest,
      'invalid_api_key',
      'This loopwire-server requires a token: send "Authorization: Bearer <token>" with the token it was started with.',
    ),
  browserOrigin: (origin: string): Refusal =>
    refusal(
      403,
      ErrorType.invalidRequest,
      'origin_not_allowed',
      `loopwire-server refuses requests from web pages (Origin: ${origin}): a page must not drive a local agent backend.`,
    ),
  adminNeedsToken: (): Refusal =>
    refusal(
      403,
      ErrorType.invalidRequest,
      'admin_disabled',
      'The admin endpoint is available only when loopwire-server is started with --token.',
    ),
  tooLarge: (limit: number): Refusal =>
    refusal(
      413,
      ErrorType.invalidRequest,
      'request_too_large',
      `The request body exceeds loopwire-server's limit of ${limit} bytes.`,
    ),
  /** `message` is the whole sentence (e.g. "No route for GET /x."). */
  notFound: (message: string): Refusal => refusal(404, ErrorType.invalidRequest, 'not_found', message),
  responseNotFound: (id: string): Refusal =>
    refusal(404, ErrorType.invalidRequest, null, `Response with id '${id}' not found.`, 'response_id'),
  methodNotAllowed: (method: string, route: string): Refusal =>
    refusal(405, ErrorType.invalidRequest, 'method_not_allowed', `${method} is not supported on ${route}.`),
  backgroundOverWebSocket: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'unsupported_parameter',
      "'background' is not supported over WebSocket mode.",
      'background',
    ),
  backgroundUnsupported: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'unsupported_parameter',
      'loopwire-server does not run background responses.',
      'background',
    ),
  webSocketOnly: (param: string): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'unsupported_parameter',
      `'${param}' is supported only in WebSocket mode.`,
      param,
    ),
  invalidStreamId: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      ErrorCode.invalidStreamId,
      "Invalid 'stream_id': it must be 1-256 characters of A-Z, a-z, 0-9, '_', '.' or '-'.",
      'stream_id',
    ),
  streamLimit: (limit: number): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      ErrorCode.streamLimitReached,
      `This connection already uses ${limit} named streams, the most it may; reuse one or open a new connection.`,
      'stream_id',
    ),
  unknownEvent: (type: string): Refusal =>
    refusal(400, ErrorType.invalidRequest, 'unknown_event_type', `Unknown client event type '${type}'.`, 'type'),
  binaryFrame: (): Refusal =>
    refusal(
      400,
      ErrorType.invalidRequest,
      'invalid_frame',
      'Binary frames are not supported: send each event as a JSON text frame.',
    ),
  internal: (): Refusal =>
    refusal(500, ErrorType.server, ErrorCode.serverError, 'loopwire-server hit an internal error.'),
};

/** Long content as the API quotes it in an error: its first and last four characters (`gAAA...DQ==`). */
function abbreviate(content: string): string {
  return content.length <= 12 ? content : `${content.slice(0, 4)}...${content.slice(-4)}`;
}

/** A refusal as the nested WebSocket `error` event (docs/protocol.md §4.1 shape 1). */
export function wsErrorEvent(refused: Refusal, streamId?: string, headers?: Record<string, string>): WsErrorEvent {
  return {
    type: 'error',
    status: refused.status,
    error: headers ? { ...refused.error, headers } : refused.error,
    ...(streamId === undefined ? {} : { stream_id: streamId }),
    ...(headers ? { headers } : {}),
  };
}
