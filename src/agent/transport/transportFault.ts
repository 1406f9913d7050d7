import type { ErrorDetails } from '../../protocol';

// Everything that can go wrong with one request, as data: the model transport decides from the kind
// (and the API's error code) whether to resend at once, back off, open a new socket, drop the chain,
// fall back to HTTP, or stop.

export type TransportFault =
  /** The connection ended; `beforeFirstEvent` when no event of this response had arrived. */
  | { kind: 'closed'; beforeFirstEvent: boolean; message: string }
  /**
   * The socket could not be opened or the POST could not be sent; `status` when the server answered;
   * `unreachable` when nothing answers there at all (connection refused, no such host).
   */
  | {
      kind: 'connect_failed';
      status: number | undefined;
      message: string;
      retryAfterMs: number | undefined;
      unreachable?: boolean;
      /** The proxy failed, not the endpoint: it could not be reached, or refused the tunnel (proxy.ts). */
      proxy?: ProxyFault;
    }
  /** The server refused the request or reported an error (WebSocket `error` event, HTTP error status). */
  | { kind: 'api_error'; error: ErrorDetails; retryAfterMs: number | undefined; midStream: boolean }
  /** The response ended as `failed`. */
  | { kind: 'response_failed'; code: string | null; message: string }
  /** A frame that is not JSON or not an event, where the response's own output cannot make up for it. */
  | { kind: 'malformed'; message: string }
  /** No event for longer than the idle timeout. */
  | { kind: 'stalled'; idleMs: number };

/** A proxy's failure: which proxy (named without credentials), and its status when it refused the tunnel. */
export interface ProxyFault {
  proxy: string;
  status: number | undefined;
}

/** A turn cannot go on: the loop stops with this reason (the transcript stays resumable). */
export class AgentStop extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentStop';
  }
}

/** The user cancelled the turn. */
export class TurnCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'TurnCancelled';
  }
}

/** Socket error codes that mean nothing is listening at the endpoint, or the host does not exist. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether a socket error's `code` says that nothing answers at the endpoint. */
export const isUnreachable = (code: unknown): boolean => typeof code === 'string' && UNREACHABLE.has(code);

/** A one-line description of a fault, for events and logs. */
export function describeFault(fault: TransportFault): string {
  switch (fault.kind) {
    case 'closed':
      return `the connection closed ${fault.beforeFirstEvent ? 'before the response started' : 'mid-response'} (${fault.message})`;
    case 'connect_failed':
      // The message may name the status already ("the upgrade was refused with HTTP 401"): said once.
      return fault.status === undefined || fault.message.includes(`HTTP ${fault.status}`)
        ? `could not connect: ${fault.message}`
        : `could not connect (HTTP ${fault.status}): ${fault.message}`;
    case 'api_error': {
      const { status, code, message } = fault.error;
      return `${code ?? 'error'}${status === undefined ? '' : ` (${status})`}: ${message}`;
    }
    case 'response_failed':
      return `the response failed: ${fault.code ?? 'error'}: ${fault.message}`;
    case 'malformed':
      return `a malformed frame: ${fault.message}`;
    case 'stalled':
      return fault.idleMs < 10_000
        ? `no event for ${(fault.idleMs / 1000).toFixed(1)} s`
        : `no event for ${Math.round(fault.idleMs / 1000)} s`;
  }
}

/** `Retry-After` (seconds, or an HTTP date) in milliseconds. */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | undefined {
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
};

/**
 * The delay an API message asks for in words: "Please try again in 11.054s", "in 20ms", "in 1m30s",
 * "in 2 seconds". Undefined when it names none.
 */
export function delayInMessage(message: string | undefined): number | undefined {
  const phrase =
    /try again in\s*((?:\d+(?:\.\d+)?\s*(?:ms|h(?:ours?)?|m(?:in(?:utes?)?)?|s(?:ec(?:onds?)?)?)\s*)+)/i.exec(
      message ?? '',
    );
  if (!phrase?.[1]) return undefined;
  let total = 0;
  for (const [, amount, unit] of phrase[1].matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/gi)) {
    const name = (unit ?? '').toLowerCase();
    const scale = UNIT_MS[name] ?? UNIT_MS[name.replace(/s$/, '')];
    if (scale === undefined) return undefined;
    total += Number(amount) * scale;
  }
  return Math.round(total);
}

/**
 * The delay the server asked for before a retry, by precedence: `retry-after-ms`, `retry-after` (seconds or
 * a date), then the message's own "try again in …". `headers` has lower-case names.
 */
export function serverDelayMs(
  headers: Record<string, string> | undefined,
  message: string | undefined,
  now = Date.now(),
): number | undefined {
  const ms = Number(headers?.['retry-after-ms']);
  if (headers?.['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers?.['retry-after'], now) ?? delayInMessage(message);
}
