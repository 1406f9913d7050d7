// The API's error codes and what each means for a client, in one table: the agent's retry policy reads it
// (over both transports, whatever shape the error came in), the bundled server answers its injected faults
// with it, and docs/endpoints.md prints it. A code not listed here is judged by its HTTP status
// (`meaningOfStatus`).

/**
 * What an error means for the request that met it:
 * - `stop`: the same request would meet it again; the task stops with the code's advice;
 * - `auth`: the credentials were refused; the task stops (each front end says where its key is set);
 * - `compact`: the context no longer fits the model's window; compact it (or stop where compaction is off);
 * - `retry`: a passing condition; send it again after the server's own delay, else a backoff;
 * - `new_socket`: this socket can take no more; open another at once and send the full context;
 * - `full_context`: the server no longer holds the chained response; send the full context at once.
 */
export type ErrorMeaning = 'stop' | 'auth' | 'compact' | 'retry' | 'new_socket' | 'full_context';

export interface ErrorCodeInfo {
  /** The HTTP status the API answers it with (over WebSocket, the `status` of the `error` frame). */
  status: number;
  /** The API error object's `type`. */
  type: string;
  meaning: ErrorMeaning;
  /** The API's own wording, as a server sends it (the bundled backend's injected faults use it). */
  message: string;
  /**
   * For a stop: a sentence the user can act on, naming no front end's flag, setting or command (each adds its
   * own from the stop's code: `loopwire exec` a flag, the chat panel a button).
   */
  advice?: string;
  /**
   * The account or the model refuses every request, whatever it carries: met on a warm-up (which carries no
   * conversation), it stops the task at once, as a refused key does, where another refusal of a warm-up
   * only turns warm-ups off (a server that does not take them).
   */
  refusesEveryRequest?: true;
}

export const ERROR_CODES = {
  insufficient_quota: {
    status: 429,
    type: 'insufficient_quota',
    meaning: 'stop',
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    advice:
      'The account has no quota left: add credit or raise its limit in the API account’s billing settings, then try again.',
    refusesEveryRequest: true,
  },
  usage_limit_reached: {
    status: 429,
    type: 'usage_limit_reached',
    meaning: 'stop',
    message: 'The usage limit has been reached.',
    advice: 'The plan’s usage limit is reached: wait until it resets, or change the plan, then try again.',
    refusesEveryRequest: true,
  },
  invalid_api_key: {
    status: 401,
    type: 'invalid_request_error',
    meaning: 'auth',
    message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  model_not_found: {
    status: 404,
    type: 'invalid_request_error',
    meaning: 'stop',
    message: 'The model does not exist or you do not have access to it.',
    advice: 'Choose a model this key can use.',
    refusesEveryRequest: true,
  },
  invalid_prompt: {
    status: 400,
    type: 'invalid_request_error',
    meaning: 'stop',
    message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.',
    advice:
      'The prompt was refused as it stands: reword the request, or leave out what was refused, and send it again.',
  },
  context_length_exceeded: {
    status: 400,
    type: 'invalid_request_error',
    meaning: 'compact',
    message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
    advice: 'The conversation no longer fits the model’s context window: start a new chat, or allow compaction.',
  },
  rate_limit_exceeded: {
    status: 429,
    type: 'rate_limit_error',
    meaning: 'retry',
    message: 'Rate limit reached for requests. Please try again in 1s.',
  },
  server_error: {
    status: 500,
    type: 'server_error',
    meaning: 'retry',
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  overloaded: {
    status: 503,
    type: 'server_error',
    meaning: 'retry',
    message: 'The server is overloaded. Please try again later.',
  },
  server_is_overloaded: {
    status: 503,
    type: 'server_error',
    meaning: 'retry',
    message: 'Our servers are currently overloaded. Please try again later.',
  },
  slow_down: {
    status: 503,
    type: 'server_error',
    meaning: 'retry',
    message: 'Please reduce the rate of your requests and try again.',
  },
  websocket_connection_limit_reached: {
    status: 400,
    type: 'invalid_request_error',
    meaning: 'new_socket',
    message:
      'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.',
  },
  previous_response_not_found: {
    status: 400,
    type: 'invalid_request_error',
    meaning: 'full_context',
    message: "Previous response with id 'resp_…' not found.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

/** The table's entry for `code`, if the code is one it lists. */
/** Whether `code` is one the account or model answers every request with (`refusesEveryRequest`). */
export function refusesEveryRequest(code: string): boolean {
  const info: ErrorCodeInfo | undefined = errorCodeInfo(code);
  return info?.refusesEveryRequest === true;
}

export function errorCodeInfo(code: string | null | undefined): ErrorCodeInfo | undefined {
  if (code === null || code === undefined || !Object.hasOwn(ERROR_CODES, code)) return undefined;
  return ERROR_CODES[code as KnownErrorCode];
}

/**
 * What an error of an unlisted code means, from its HTTP status (or, where an error event carries none, its
 * `type`): 401/403 the credentials; 408, 409, 429 and 5xx pass (the SDK retries exactly these); any other
 * 4xx would be refused again. With neither, it is taken for a passing server fault.
 */
export function meaningOfStatus(status: number | undefined, type?: string): ErrorMeaning {
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') return 'auth';
  if (status === undefined) return type === 'invalid_request_error' ? 'stop' : 'retry';
  if (status === 408 || status === 409 || status === 429 || status >= 500) return 'retry';
  if (status >= 400) return 'stop';
  return 'retry';
}

/** What an error means: the table's word for its code, else its status's. */
export function errorMeaning(error: { code: string | null; status: number | undefined; type?: string }): ErrorMeaning {
  return errorCodeInfo(error.code)?.meaning ?? meaningOfStatus(error.status, error.type);
}
