import type { AnyInputItem, AnyOutputItem, AnyTool, ResponseObject } from '../protocol';
import type { AgentEventSink } from './events';
import { exchangeHttp } from './httpExchange';
import { type AssemblerStep, ResponseAssembler } from './responseAssembler';
import { actionFor, backoffMs } from './retryPolicy';
import { AgentStop, type TransportFault, TurnCancelled, describeFault } from './transportFault';
import { ConnectError, WsChannel } from './wsChannel';

// One logical session over rotating sockets. The caller always hands over the whole transcript; this
// decides what goes on the wire: `previous_response_id` and only the new items when that response
// completed on the current socket, the full context otherwise. Faults are retried per retryPolicy.ts;
// a lost cache costs one full request and loses nothing.

export type TransportMode = 'ws' | 'http' | 'auto';

export interface SessionOptions {
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
  /** A response with no event for this long is abandoned and resent. */
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Requests per turn, the first included. */
  maxAttempts?: number;
  /** In `auto`, WebSocket failures in a row before the session moves to HTTP for good. */
  wsFailuresBeforeFallback?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Extra headers on every request and upgrade. */
  headers?: Record<string, string>;
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
}

/** The response a lane can chain from, and where it lives. */
interface Chain {
  responseId: string;
  /** The socket it completed on; 0 for a stored (HTTP) response. */
  generation: number;
  /** Transcript items it covers (its input and output). */
  itemCount: number;
}

interface Attempt {
  step: Exclude<AssemblerStep, { kind: 'continue' }>;
  assembler: ResponseAssembler;
  bytesSent: number;
  bytesReceived: number;
  sentAt: number;
  /** The socket it went over; 0 over HTTP. */
  generation: number;
}

const DEFAULT_LANE = '';

export class SessionTransport {
  private channel: WsChannel | undefined;
  private opening: Promise<WsChannel> | undefined;
  private readonly warmed = new WeakSet<WsChannel>();
  private readonly chains = new Map<string, Chain>();
  private wsFailures = 0;
  private onHttp: boolean;
  private closed = false;
  private readonly opts: Required<Omit<SessionOptions, 'apiKey' | 'headers'>> &
    Pick<SessionOptions, 'apiKey' | 'headers'>;

  constructor(options: SessionOptions) {
    this.opts = {
      store: false,
      chain: true,
      rotateAfterMs: 55 * 60 * 1000,
      idleTimeoutMs: 120_000,
      connectTimeoutMs: 15_000,
      maxAttempts: 8,
      wsFailuresBeforeFallback: 3,
      backoffBaseMs: 250,
      backoffMaxMs: 8_000,
      ...options,
    };
    this.onHttp = options.transport === 'http';
  }

  /** The transport the next request uses. */
  get transport(): 'ws' | 'http' {
    return this.onHttp ? 'http' : 'ws';
  }

  /**
   * Opens the socket and warms it up (`generate: false` with the instructions and tools), so the first real
   * turn pays no handshake. Over HTTP there is nothing to prepare.
   */
  async start(warmup: Omit<TurnRequest, 'items'>): Promise<void> {
    if (this.onHttp) {
      this.opts.emit({ type: 'transport', state: 'http', transport: 'http' });
      return;
    }
    try {
      const channel = await this.currentChannel();
      await this.warmUp(channel, warmup);
    } catch (error) {
      if (error instanceof AgentStop) throw error;
      // The first turn retries (and may fall back); starting never fails the session on its own.
      this.opts.emit({ type: 'error', code: 'warmup_failed', message: `warm-up failed: ${(error as Error).message}` });
    }
  }

  /** Runs one turn to its completed response, retrying faults. Throws {@link AgentStop} or {@link TurnCancelled}. */
  async run(turn: number, request: TurnRequest, signal: AbortSignal): Promise<TurnOutcome> {
    const lane = request.lane ?? DEFAULT_LANE;
    let bytesSent = 0;
    let bytesReceived = 0;
    let firstSentAt: number | undefined;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new TurnCancelled();
      const transport = this.transport;
      let chain: Chain | undefined;
      let input: readonly AnyInputItem[] = request.items;
      let result: Attempt;
      try {
        const channel = transport === 'ws' ? await this.readyChannel(request) : undefined;
        chain = this.usableChain(lane, request.items.length);
        if (chain) input = request.items.slice(chain.itemCount);
        const body: Record<string, unknown> = {
          ...request.extra,
          model: request.model,
          ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
          tools: request.tools,
          store: this.opts.store,
          ...this.includeFor(request),
          input,
          ...(chain ? { previous_response_id: chain.responseId } : {}),
        };
        result = channel
          ? await this.exchangeWs(channel, turn, body, request.lane, signal, this.opts.emit)
          : await this.sendHttp(turn, body, signal);
      } catch (error) {
        if (error instanceof ConnectError) {
          result = {
            step: {
              kind: 'fault',
              fault: {
                kind: 'connect_failed',
                status: error.status,
                message: error.message,
                retryAfterMs: error.retryAfter === undefined ? undefined : Number(error.retryAfter) * 1000,
              },
            },
            assembler: new ResponseAssembler(turn, () => undefined),
            bytesSent: 0,
            bytesReceived: 0,
            sentAt: performance.now(),
            generation: 0,
          };
        } else throw error;
      }
      firstSentAt ??= result.sentAt;
      bytesSent += result.bytesSent;
      bytesReceived += result.bytesReceived;
      const { step, assembler } = result;
      if (step.kind === 'done') {
        if (transport === 'ws') this.wsFailures = 0;
        this.chains.set(lane, {
          responseId: step.response.id,
          generation: result.generation,
          itemCount: request.items.length + step.output.length,
        });
        const now = performance.now();
        return {
          response: step.response,
          output: step.output,
          transport,
          chained: chain !== undefined && chain.itemCount > 0,
          attempts: attempt,
          itemsSent: input.length,
          bytesSent,
          bytesReceived,
          firstSentAt,
          sentAt: result.sentAt,
          firstEventAt: assembler.firstEventAt ?? now,
          firstDeltaAt: assembler.firstDeltaAt,
          completedAt: now,
        };
      }
      if (assembler.started) this.opts.emit({ type: 'output_discarded', turn, reason: describeFault(step.fault) });
      await this.recover(turn, attempt, lane, transport, step.fault, signal);
    }
  }

  /**
   * Closes the socket; the session can still be resumed by a new transport with the same transcript.
   * `announce: false` when the task's `done` must stay the last event.
   */
  close(announce = true): void {
    this.closed = true;
    this.channel?.close('session closed');
    this.channel = undefined;
    if (announce) this.opts.emit({ type: 'transport', state: 'closed', transport: this.transport });
  }

  private usableChain(lane: string, itemCount: number): Chain | undefined {
    if (!this.opts.chain) return undefined;
    const chain = this.chains.get(lane);
    if (!chain || chain.itemCount > itemCount) return undefined;
    if (chain.generation === 0) return this.opts.store ? chain : undefined;
    return this.transport === 'ws' && this.channel?.generation === chain.generation && !this.channel.closed
      ? chain
      : undefined;
  }

  private async recover(
    turn: number,
    attempt: number,
    lane: string,
    transport: 'ws' | 'http',
    fault: TransportFault,
    signal: AbortSignal,
  ): Promise<void> {
    const action = actionFor(fault, transport, this.opts.transport);
    const reason = describeFault(fault);
    if (action.action === 'stop') throw new AgentStop(action.code, action.message);
    if (attempt >= this.opts.maxAttempts)
      throw new AgentStop('retries_exhausted', `Gave up after ${attempt} attempts; the last: ${reason}.`);
    // Any failed request ends its chain: the server evicts a failed continuation's parent (§3.6).
    this.chains.delete(lane);
    if (action.newSocket && transport === 'ws') this.retireChannel(reason);
    if (transport === 'ws' && action.transportFailure) this.wsFailures++;
    if (
      this.opts.transport === 'auto' &&
      !this.onHttp &&
      (action.fallBack || this.wsFailures >= this.opts.wsFailuresBeforeFallback)
    ) {
      this.onHttp = true;
      this.retireChannel('falling back to HTTP');
      this.opts.emit({ type: 'transport', state: 'http_fallback', transport: 'http', reason });
    } else if (transport === 'ws' && action.newSocket) {
      this.opts.emit({
        type: 'transport',
        state: 'reconnecting',
        transport: 'ws',
        attempt,
        maxAttempts: this.opts.maxAttempts - 1,
        reason,
      });
    }
    const jitter = Math.round(Math.random() * 250);
    const delayMs =
      action.delayMs === null
        ? backoffMs(attempt, this.opts.backoffBaseMs, this.opts.backoffMaxMs)
        : action.delayMs + (action.delayMs > 0 ? jitter : 0);
    this.opts.emit({ type: 'retry', turn, attempt: attempt + 1, reason, delayMs, fullContext: true });
    if (delayMs > 0) await sleep(delayMs, signal);
  }

  private retireChannel(reason: string): void {
    const channel = this.channel;
    this.channel = undefined;
    channel?.close(reason);
  }

  private async currentChannel(): Promise<WsChannel> {
    if (this.closed) throw new AgentStop('closed', 'The session is closed.');
    const current = this.channel;
    if (current && !current.closed) {
      if (current.ageMs < this.opts.rotateAfterMs || current.busy) return current;
      // Rotation happens here, between turns, never mid-response.
      this.retireChannel('rotated before the connection age limit');
    }
    this.opening ??= this.openChannel().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async openChannel(): Promise<WsChannel> {
    this.opts.emit({ type: 'transport', state: 'connecting', transport: 'ws' });
    const url = `${this.opts.endpoint.replace(/\/+$/, '').replace(/^http/, 'ws')}/responses`;
    const channel = await WsChannel.open(url, {
      headers: this.headers(),
      connectTimeoutMs: this.opts.connectTimeoutMs,
    });
    this.channel = channel;
    return channel;
  }

  /**
   * Without a server-side store, reasoning can be replayed in a full-context request only from its
   * encrypted content, so it is asked for (unless the caller chose `include` itself).
   */
  private includeFor(request: TurnRequest): { include?: string[] } {
    if (this.opts.store || request.extra?.include !== undefined) return {};
    return { include: ['reasoning.encrypted_content'] };
  }

  private headers(): Record<string, string> {
    return {
      ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      ...this.opts.headers,
    };
  }

  /** `generate: false` once per socket: a chainable id that covers no items yet. */
  private async warmUp(channel: WsChannel, request: Omit<TurnRequest, 'items'>): Promise<void> {
    if (this.warmed.has(channel)) return;
    this.warmed.add(channel);
    const lane = request.lane ?? DEFAULT_LANE;
    const body = {
      ...request.extra,
      model: request.model,
      ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
      tools: request.tools,
      store: this.opts.store,
      input: [],
      generate: false,
    };
    const result = await this.exchangeWs(channel, 0, body, request.lane, new AbortController().signal, () => undefined);
    if (result.step.kind !== 'done') {
      const action = actionFor(result.step.fault, 'ws', this.opts.transport);
      if (action.action === 'stop') throw new AgentStop(action.code, action.message);
      // The turn itself then goes out unchained and meets (and recovers from) whatever this was. A stalled
      // warm-up may still be streaming, and its late `response.completed` (no output) would be taken for the
      // turn's answer, ending the task early: so its socket goes, and the turn meets a closed one.
      if (action.newSocket && !channel.closed) channel.close(describeFault(result.step.fault));
      return;
    }
    if (!this.chains.has(lane) || this.chains.get(lane)?.generation !== channel.generation)
      this.chains.set(lane, { responseId: result.step.response.id, generation: channel.generation, itemCount: 0 });
    this.opts.emit({ type: 'transport', state: 'warm', transport: 'ws' });
  }

  /** The socket this turn goes over: open, rotated if old, and warmed up once. */
  private async readyChannel(request: TurnRequest): Promise<WsChannel> {
    const channel = await this.currentChannel();
    await this.warmUp(channel, request);
    return channel;
  }

  private exchangeWs(
    channel: WsChannel,
    turn: number,
    body: Record<string, unknown>,
    lane: string | undefined,
    signal: AbortSignal,
    emit: AgentEventSink,
  ): Promise<Attempt> {
    const assembler = new ResponseAssembler(turn, emit);
    return new Promise<Attempt>((resolve, reject) => {
      let bytesSent = 0;
      let settled = false;
      const sentAt = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const startBytes = channel.bytesReceived;
      const finish = (step: AssemblerStep) => {
        if (settled || step.kind === 'continue') return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        channel.release(lane);
        const bytesReceived = channel.bytesReceived - startBytes;
        resolve({ step, assembler, bytesSent, bytesReceived, sentAt, generation: channel.generation });
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => finish({ kind: 'fault', fault: { kind: 'stalled', idleMs: this.opts.idleTimeoutMs } }),
          this.opts.idleTimeoutMs,
        );
      };
      const onAbort = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        channel.release(lane);
        // The server may still be streaming this response: the socket goes with it.
        if (this.channel === channel) this.retireChannel('cancelled mid-response');
        else channel.close('cancelled mid-response');
        this.chains.delete(lane ?? DEFAULT_LANE);
        reject(new TurnCancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      arm();
      bytesSent = channel.send({ type: 'response.create', ...body, ...(lane ? { stream_id: lane } : {}) }, lane, {
        event: (value) => {
          arm();
          finish(assembler.accept(value));
        },
        malformed: () => {
          arm();
          assembler.acceptMalformed();
        },
        closed: (message) =>
          finish({ kind: 'fault', fault: { kind: 'closed', beforeFirstEvent: !assembler.started, message } }),
      });
    });
  }

  private async sendHttp(turn: number, body: Record<string, unknown>, signal: AbortSignal): Promise<Attempt> {
    const assembler = new ResponseAssembler(turn, this.opts.emit);
    const text = JSON.stringify({ ...body, stream: true });
    try {
      const outcome = await exchangeHttp(
        {
          url: `${this.opts.endpoint.replace(/\/+$/, '')}/responses`,
          body: text,
          headers: this.headers(),
          signal,
          idleTimeoutMs: this.opts.idleTimeoutMs,
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
      if (signal.aborted) {
        this.chains.delete(DEFAULT_LANE);
        throw new TurnCancelled();
      }
      throw error;
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
