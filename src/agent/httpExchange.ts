import { type ErrorDetails, HttpErrorBody, decodeWire } from '../protocol';
import type { AgentEventSink } from './events';
import { type ProxyRoute, fetchProxyFault, viaProxy } from './proxy';
import { type AssemblerStep, ResponseAssembler } from './responseAssembler';
import { type TransportFault, TurnCancelled, isUnreachable, serverDelayMs } from './transportFault';
import type { Attempt } from './wsExchange';

// One `POST /v1/responses` with `stream: true`: the SSE events go through the same assembler as WebSocket
// frames. Errors before the stream are the API's JSON error bodies, with `Retry-After` honoured.

export interface HttpExchange {
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** The proxy to tunnel through (proxy.ts); absent: directly. */
  proxy?: ProxyRoute | undefined;
}

export interface HttpOutcome {
  step: Exclude<AssemblerStep, { kind: 'continue' }>;
  bytesReceived: number;
  /** When the request was handed to the socket (performance.now()). */
  sentAt: number;
}

/** The headers of an error answer that say when to retry (names lower-case, as `Headers` gives them). */
function retryHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['retry-after', 'retry-after-ms']) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}

const fault = (value: TransportFault): AssemblerStep & { kind: 'fault' } => ({ kind: 'fault', fault: value });

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  const message = error instanceof Error ? error.message : String(error);
  return detail === '' ? message : `${message} (${detail})`;
}

/** A request that never reached the endpoint: nothing answering there, or the proxy's failure. */
function connectFault(error: unknown, proxy: ProxyRoute | undefined): TransportFault {
  const proxied = fetchProxyFault(error, proxy);
  if (proxied)
    return {
      kind: 'connect_failed',
      status: undefined,
      message: proxied.message,
      retryAfterMs: undefined,
      proxy: proxied.fault,
    };
  return {
    kind: 'connect_failed',
    status: undefined,
    message: causeOf(error),
    retryAfterMs: undefined,
    unreachable: isUnreachable((error as { cause?: { code?: unknown } } | undefined)?.cause?.code),
  };
}

/** Feeds the SSE blocks of `text` to the assembler; returns the unfinished tail and the step that ended it, if any. */
function feed(buffer: string, assembler: ResponseAssembler): { rest: string; step: AssemblerStep | undefined } {
  let rest = buffer;
  for (;;) {
    const match = /\r?\n\r?\n/.exec(rest);
    if (!match) return { rest, step: undefined };
    const block = rest.slice(0, match.index);
    rest = rest.slice(match.index + match[0].length);
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      assembler.acceptMalformed();
      continue;
    }
    const step = assembler.accept(value);
    if (step.kind !== 'continue') return { rest, step };
  }
}

export async function exchangeHttp(request: HttpExchange, assembler: ResponseAssembler): Promise<HttpOutcome> {
  const idle = new AbortController();
  const signal = AbortSignal.any([request.signal, idle.signal]);
  let timer: NodeJS.Timeout | undefined;
  let stalled = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      idle.abort();
    }, request.idleTimeoutMs);
  };
  let bytesReceived = 0;
  const sentAt = performance.now();
  arm();
  try {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...request.headers },
        body: request.body,
        signal,
        ...viaProxy(request.proxy),
      });
    } catch (error) {
      if (request.signal.aborted) throw error;
      if (stalled) return { step: fault({ kind: 'stalled', idleMs: request.idleTimeoutMs }), bytesReceived, sentAt };
      return { step: fault(connectFault(error, request.proxy)), bytesReceived, sentAt };
    }
    if (!response.ok) {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        // The error answer itself was cut off: a dropped connection like any other (resent), not a crash.
        if (request.signal.aborted) throw error;
        if (stalled) return { step: fault({ kind: 'stalled', idleMs: request.idleTimeoutMs }), bytesReceived, sentAt };
        return {
          step: fault({ kind: 'closed', beforeFirstEvent: true, message: causeOf(error) }),
          bytesReceived,
          sentAt,
        };
      }
      bytesReceived += Buffer.byteLength(text);
      const body = decodeWire(HttpErrorBody, text);
      const headers = retryHeaders(response.headers);
      const error: ErrorDetails = body.ok
        ? {
            status: response.status,
            type: body.value.error.type,
            code: body.value.error.code ?? null,
            message: body.value.error.message,
            param: body.value.error.param ?? null,
            headers,
          }
        : { status: response.status, type: undefined, code: null, message: text.slice(0, 500), param: null, headers };
      return {
        step: fault({
          kind: 'api_error',
          error,
          retryAfterMs: serverDelayMs(headers, error.message),
          midStream: false,
        }),
        bytesReceived,
        sentAt,
      };
    }
    if (!response.body)
      return { step: fault({ kind: 'malformed', message: 'an empty SSE body' }), bytesReceived, sentAt };
    const decoder = new TextDecoder();
    let buffer = '';
    /** The answer, once its terminal event came: what follows it on the connection is not waited for. */
    let settled: HttpOutcome | undefined;
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        arm();
        bytesReceived += chunk.byteLength;
        const fed = feed(buffer + decoder.decode(chunk, { stream: true }), assembler);
        buffer = fed.rest;
        if (fed.step && fed.step.kind !== 'continue') {
          settled = { step: fed.step, bytesReceived, sentAt };
          break;
        }
      }
    } catch (error) {
      // Leaving the loop cancels the body, which may fail: the answer is whole all the same.
      if (settled) return settled;
      if (request.signal.aborted) throw error;
      if (stalled) return { step: fault({ kind: 'stalled', idleMs: request.idleTimeoutMs }), bytesReceived, sentAt };
      return {
        step: fault({ kind: 'closed', beforeFirstEvent: !assembler.started, message: causeOf(error) }),
        bytesReceived,
        sentAt,
      };
    }
    if (settled) {
      // Stop reading the rest (a body still open after the terminal event). Aborting a body mid-read can throw
      // its reason at once, from undici's listener: the answer is already whole, so that is no fault.
      try {
        idle.abort();
      } catch {
        // The answer stands.
      }
      return settled;
    }
    const last = feed(`${buffer}${decoder.decode()}\n\n`, assembler);
    if (last.step && last.step.kind !== 'continue') return { step: last.step, bytesReceived, sentAt };
    return {
      step: fault({
        kind: 'closed',
        beforeFirstEvent: !assembler.started,
        message: 'the stream ended before the response did',
      }),
      bytesReceived,
      sentAt,
    };
  } finally {
    clearTimeout(timer);
  }
}

export interface HttpTurn {
  /** The session's base URL (`…/v1`). */
  endpoint: string;
  turn: number;
  /** The request body as for either transport; `stream: true` is added here. */
  body: Record<string, unknown>;
  headers: Record<string, string>;
  signal: AbortSignal;
  idleTimeoutMs: number;
  emit: AgentEventSink;
  proxy?: ProxyRoute | undefined;
  /** The user cancelled: called before the rejection with {@link TurnCancelled}. */
  onCancel: () => void;
}

/** One turn's request over HTTP, as an attempt of the session transport (over no socket: generation 0). */
export async function httpAttempt(turn: HttpTurn): Promise<Attempt> {
  const assembler = new ResponseAssembler(turn.turn, turn.emit);
  const text = JSON.stringify({ ...turn.body, stream: true });
  try {
    const outcome = await exchangeHttp(
      {
        url: `${turn.endpoint.replace(/\/+$/, '')}/responses`,
        body: text,
        headers: turn.headers,
        signal: turn.signal,
        idleTimeoutMs: turn.idleTimeoutMs,
        proxy: turn.proxy,
      },
      assembler,
    );
    return {
      step: outcome.step,
      assembler,
      bytesSent: Buffer.byteLength(text),
      bytesReceived: outcome.bytesReceived,
      sentAt: outcome.sentAt,
      generation: 0,
    };
  } catch (error) {
    if (turn.signal.aborted) {
      turn.onCancel();
      throw new TurnCancelled();
    }
    throw error;
  }
}
