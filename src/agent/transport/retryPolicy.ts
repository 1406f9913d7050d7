import { t } from '@vscode/l10n';
import { ErrorCode, type ErrorDetails, errorCodeInfo, errorMeaning } from '../../protocol';
import { faultDisplay } from './faultDisplay';
import { type TransportFault, TurnCancelled } from './transportFault';

// What to do about a fault, decided from its kind and the API's error code alone (so it can be tested as
// a table): stop, or resend — at once or after a delay, on the same socket or a new one, chained or with
// the full context. A resend never repeats a tool: tools run only on a completed response.
//
// A stop's message states the fault and nothing of how to fix it: the same stop reaches `loopwire exec` and
// the chat panel, and each front end adds its own remedy from the stop's `code` (an environment variable or a
// flag in the CLI, a command's button in the panel). The codes this file makes: `auth` (the credentials
// refused), `unreachable` (nothing answers at the endpoint), `proxy` (the proxy cannot be reached or refused
// the tunnel), `websocket_unsupported` (transport `ws` where the endpoint has no WebSocket mode); an API error's stop keeps the API's code (`model_not_found`…).

export type FaultAction =
  | { action: 'stop'; code: string; message: string }
  | {
      action: 'retry';
      /** Open a new socket first (the old one is gone, at its limit, or may still be streaming). */
      newSocket: boolean;
      /** Wait this long first (null: the backoff's next delay). */
      delayMs: number | null;
      /** This counts towards falling back to HTTP: the WebSocket itself failed. */
      transportFailure: boolean;
      /** Switch to HTTP now (`auto` only): the server does not speak WebSocket mode. */
      fallBack: boolean;
    };

const retry = (
  newSocket: boolean,
  delayMs: number | null,
  transportFailure: boolean,
  fallBack = false,
): FaultAction => ({
  action: 'retry',
  newSocket,
  delayMs,
  transportFailure,
  fallBack,
});

const isAuth = (status: number | undefined) => status === 401 || status === 403;

/**
 * `reached`: whether the endpoint has answered before in this session. Until it has, nothing listening
 * there (connection refused, no such host) is a wrong endpoint, stopped at once; after, a restart, retried.
 */
export function actionFor(
  fault: TransportFault,
  transport: 'ws' | 'http',
  mode: 'ws' | 'http' | 'auto',
  reached = true,
): FaultAction {
  switch (fault.kind) {
    case 'closed':
      // Nothing of the response was used: resend at once (a dropped mid-stream response is discarded).
      return retry(true, 0, transport === 'ws');
    case 'stalled':
    case 'malformed':
      return retry(true, 0, transport === 'ws');
    case 'connect_failed': {
      const { status } = fault;
      if (fault.proxy) return proxyAction(fault.proxy, fault.message, transport, reached);
      if (fault.unreachable === true && !reached)
        return {
          action: 'stop',
          code: 'unreachable',
          message: t('Nothing answers at the endpoint: {0}', sentence(fault.message)),
        };
      if (isAuth(status))
        return {
          action: 'stop',
          code: 'auth',
          message: t('The endpoint refused the credentials: {0}', sentence(faultDisplay(fault))),
        };
      if (transport === 'ws' && (status === 426 || status === 404 || status === 405)) {
        if (mode === 'auto') return retry(true, 0, true, true);
        return {
          action: 'stop',
          code: 'websocket_unsupported',
          message: t('The endpoint does not offer WebSocket mode: {0}', sentence(faultDisplay(fault))),
        };
      }
      if (status === 429) return retry(true, fault.retryAfterMs ?? null, false);
      return retry(true, fault.retryAfterMs ?? null, transport === 'ws');
    }
    case 'response_failed':
      return actionForError(
        { status: undefined, type: undefined, code: fault.code, message: fault.message, param: null },
        undefined,
        faultDisplay(fault),
      );
    case 'api_error':
      return actionForError(fault.error, fault.retryAfterMs, faultDisplay(fault));
  }
}

/**
 * A proxy that cannot be reached, or refuses the tunnel, before the endpoint ever answered is a setting to
 * fix, as nothing answering at the endpoint is; a proxy that wants credentials or forbids the host always
 * is. After the endpoint answered, another refusal is a blip (a proxy restarting), resent with backoff.
 */
function proxyAction(
  proxy: { status: number | undefined },
  message: string,
  transport: 'ws' | 'http',
  reached: boolean,
): FaultAction {
  if (!reached || proxy.status === 407 || proxy.status === 403)
    return { action: 'stop', code: 'proxy', message: sentence(message.charAt(0).toUpperCase() + message.slice(1)) };
  return retry(true, null, transport === 'ws');
}

/**
 * What an API error means, from the error-code table (`src/protocol/errorCodes.ts`), else its HTTP status:
 * the same whether it came as an HTTP status with a JSON body, a WebSocket `error` frame, a mid-stream
 * `error` event or `response.failed`'s `error`.
 */
function actionForError(error: ErrorDetails, retryAfterMs: number | undefined, described: string): FaultAction {
  const meaning = errorMeaning(error);
  switch (meaning) {
    case 'full_context':
      return retry(false, 0, false);
    case 'new_socket':
      return retry(true, 0, false);
    case 'retry':
      return retry(false, retryAfterMs ?? null, false);
    case 'auth':
      return {
        action: 'stop',
        code: 'auth',
        message: t('The API refused the request: {0}', sentence(described)),
      };
    case 'compact':
    case 'stop': {
      const code = error.code ?? (meaning === 'compact' ? ErrorCode.contextLengthExceeded : 'invalid_request');
      const advice = errorCodeInfo(code)?.advice;
      return {
        action: 'stop',
        code,
        message: t(
          'The API refused the request: {0}',
          advice === undefined ? described : `${sentence(described)} ${advice}`,
        ),
      };
    }
  }
}

/** Exponential backoff with jitter: attempt 1 → about `baseMs`, doubling up to `maxMs`, each drawn from [½, 1]. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** How long to wait before a resend: the action's own delay (plus up to 250 ms of jitter), else the backoff's next. */
export function retryDelayMs(delayMs: number | null, attempt: number, baseMs: number, maxMs: number): number {
  if (delayMs === null) return backoffMs(attempt, baseMs, maxMs);
  return delayMs + (delayMs > 0 ? Math.round(Math.random() * 250) : 0);
}

/** Waits `ms` before a resend; rejects with {@link TurnCancelled} when `signal` aborts first. */
export function waitToRetry(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TurnCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `text` ending with exactly one full stop (an API message may bring its own). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
