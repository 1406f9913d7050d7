import { type EventSourceParser, createParser } from 'eventsource-parser';
import { type ErrorDetails, HttpErrorBody, decodeWire } from '../../protocol';
import type { AgentEventSink } from '../events';
import { type ProxyRoute, fetchProxyFault, viaProxy } from './proxy';
import { RedirectRefused, fetchSameOrigin } from './redirectGuard';
import { type AssemblerStep, ResponseAssembler } from './responseAssembler';
import { AgentStop, type TransportFault, TurnCancelled, isUnreachable, serverDelayMs } from './transportFault';
import type { Attempt } from './wsExchange';

// One `POST /v1/responses` with `stream: true`: the SSE events go through the same assembler as WebSocket
// frames. Errors before the stream are the API's JSON error bodies, with `Retry-After` honoured. A redirect to
// another origin is no fault to resend but a stop (redirectGuard.ts): the same endpoint answers it every time.

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

/**
 * The body's server-sent events into the assembler, parsed by eventsource-parser (lone CRs as line ends,
 * comments, `event:` and multi-line `data:` as the SSE spec reads them), until the step that ends the response.
 */
class SseReader {
  private ended: AssemblerStep | undefined;
  private readonly parser: EventSourceParser;

  constructor(private readonly assembler: ResponseAssembler) {
    this.parser = createParser({ onEvent: (event) => this.accept(event.data) });
  }

  /** Feeds the next text of the body; the step that ended the response, once one did. */
  feed(text: string): AssemblerStep | undefined {
    if (!this.ended) this.parser.feed(text);
    return this.ended;
  }

  private accept(data: string): void {
    if (this.ended || data === '') return;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.assembler.acceptMalformed();
      return;
    }
    const step = this.assembler.accept(value);
    if (step.kind !== 'continue') this.ended = step;
  }
}

/**
 * The request's idle timer: re-armed at each chunk, it aborts the request when the endpoint goes quiet for
 * `idleTimeoutMs`, and says so (`stalled`), where the caller's own abort is a cancel.
 */
class IdleWatch {
  private readonly idle = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  stalled = false;
  readonly signal: AbortSignal;

  constructor(
    private readonly request: HttpExchange,
    /** What has come back so far, and when the request went. */
    readonly progress = { bytesReceived: 0, sentAt: performance.now() },
  ) {
    this.signal = AbortSignal.any([request.signal, this.idle.signal]);
  }

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stalled = true;
      this.idle.abort();
    }, this.request.idleTimeoutMs);
  }

  /** Stops reading a body still open after its answer; aborting mid-read may throw at once, which is no fault. */
  drop(): void {
    try {
      this.idle.abort();
    } catch {
      // The answer stands.
    }
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** The outcome `step` ends the exchange with, and what came back by then. */
  outcome(step: HttpOutcome['step']): HttpOutcome {
    return { step, ...this.progress };
  }

  /**
   * A failure of the connection: the caller's cancel rethrown, the idle timer's abort a stall, anything else
   * `otherwise`.
   */
  lost(error: unknown, otherwise: TransportFault): HttpOutcome {
    if (this.request.signal.aborted) throw error;
    if (this.stalled) return this.outcome(fault({ kind: 'stalled', idleMs: this.request.idleTimeoutMs }));
    return this.outcome(fault(otherwise));
  }
}

export async function exchangeHttp(request: HttpExchange, assembler: ResponseAssembler): Promise<HttpOutcome> {
  const watch = new IdleWatch(request);
  watch.arm();
  try {
    let response: Response;
    try {
      response = await fetchSameOrigin(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...request.headers },
        body: request.body,
        signal: watch.signal,
        ...viaProxy(request.proxy),
      });
    } catch (error) {
      if (error instanceof RedirectRefused && !request.signal.aborted)
        throw new AgentStop('redirected', error.sentence);
      return watch.lost(error, connectFault(error, request.proxy));
    }
    if (!response.ok) return await errorAnswer(response, watch);
    if (!response.body) return watch.outcome(fault({ kind: 'malformed', message: 'an empty SSE body' }));
    return await readEvents(response.body as AsyncIterable<Uint8Array>, assembler, watch);
  } finally {
    watch.clear();
  }
}

/** An answer that is not a stream: the API's error, with when to retry. */
async function errorAnswer(response: Response, watch: IdleWatch): Promise<HttpOutcome> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The error answer itself was cut off: a dropped connection like any other (resent), not a crash.
    return watch.lost(error, { kind: 'closed', beforeFirstEvent: true, message: causeOf(error) });
  }
  watch.progress.bytesReceived += Buffer.byteLength(text);
  const headers = retryHeaders(response.headers);
  const error = errorDetails(response.status, text, headers);
  const retryAfterMs = serverDelayMs(headers, error.message);
  return watch.outcome(fault({ kind: 'api_error', error, retryAfterMs, midStream: false }));
}

/** The error of an answer of `status`: its JSON error body's fields, or the start of whatever it said. */
function errorDetails(status: number, text: string, headers: Record<string, string>): ErrorDetails {
  const body = decodeWire(HttpErrorBody, text);
  if (!body.ok) return { status, type: undefined, code: null, message: text.slice(0, 500), param: null, headers };
  const { type, code, message, param } = body.value.error;
  return { status, type, code: code ?? null, message, param: param ?? null, headers };
}

/** The SSE stream through the assembler, until its terminal event or its end. */
async function readEvents(
  body: AsyncIterable<Uint8Array>,
  assembler: ResponseAssembler,
  watch: IdleWatch,
): Promise<HttpOutcome> {
  const decoder = new TextDecoder();
  const reader = new SseReader(assembler);
  /** The answer, once its terminal event came: what follows it on the connection is not waited for. */
  let settled: HttpOutcome | undefined;
  try {
    for await (const chunk of body) {
      watch.arm();
      watch.progress.bytesReceived += chunk.byteLength;
      const step = reader.feed(decoder.decode(chunk, { stream: true }));
      if (step && step.kind !== 'continue') {
        settled = watch.outcome(step);
        break;
      }
    }
  } catch (error) {
    // Leaving the loop cancels the body, which may fail: the answer is whole all the same.
    if (settled) return settled;
    return watch.lost(error, { kind: 'closed', beforeFirstEvent: !assembler.started, message: causeOf(error) });
  }
  if (settled) {
    // Stop reading the rest (a body still open after the terminal event).
    watch.drop();
    return settled;
  }
  // An event the body ended without its blank line is read all the same.
  const last = reader.feed(`${decoder.decode()}\n\n`);
  if (last && last.kind !== 'continue') return watch.outcome(last);
  const message = 'the stream ended before the response did';
  return watch.outcome(fault({ kind: 'closed', beforeFirstEvent: !assembler.started, message }));
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

/** One turn's request over HTTP, as an attempt of the model transport (over no socket: generation 0). */
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
