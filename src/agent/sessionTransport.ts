import type { AnyInputItem, AnyOutputItem, AnyTool, ResponseObject } from '../protocol';
import type { AgentEventSink } from './events';
import { exchangeHttp } from './httpExchange';
import { USER_AGENT, WEBSOCKET_BETA, contextOf, requestBody } from './requestBody';
import { ResponseAssembler } from './responseAssembler';
import { actionFor, backoffMs } from './retryPolicy';
import { AgentStop, type TransportFault, TurnCancelled, describeFault, isUnreachable } from './transportFault';
import { ConnectError, WsChannel } from './wsChannel';
import { type WsAttempt, exchangeWs } from './wsExchange';

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
  /** Extra headers on every request and upgrade (a gateway's `api-key`); they win over Loopwire's own. */
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
  /**
   * The conversation's id, sent as `prompt_cache_key` on every request, so that full-context requests
   * (HTTP, a new socket) are routed to the prompt cache that holds this conversation's prefix.
   */
  promptCacheKey?: string;
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

/** One request's outcome, over either transport (an HTTP one goes over no socket: generation 0). */
type Attempt = WsAttempt;

const DEFAULT_LANE = '';

export class SessionTransport {
  private channel: WsChannel | undefined;
  private opening: Promise<WsChannel> | undefined;
  private readonly warmed = new WeakSet<WsChannel>();
  private readonly chains = new Map<string, Chain>();
  private wsFailures = 0;
  /** Whether the endpoint has answered once: until then, nothing listening there is a stop, not a blip. */
  private reached = false;
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
      this.opts.emit({
        type: 'notice',
        code: 'warmup_failed',
        message: `The warm-up failed (${(error as Error).message}); the first turn connects again.`,
      });
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
      const context = contextOf(request.instructions, request.items);
      let chain: Chain | undefined;
      let input = context;
      let result: Attempt;
      try {
        const channel = transport === 'ws' ? await this.readyChannel(request) : undefined;
        chain = this.usableChain(lane, context.length);
        if (chain) input = context.slice(chain.itemCount);
        const body = this.body(request, input, chain?.responseId);
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
                unreachable: isUnreachable(error.code),
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
      const { step: answer } = result;
      if (!(answer.kind === 'fault' && answer.fault.kind === 'connect_failed' && answer.fault.status === undefined))
        this.reached = true;
      bytesSent += result.bytesSent;
      bytesReceived += result.bytesReceived;
      const { step, assembler } = result;
      if (step.kind === 'done') {
        if (transport === 'ws') this.wsFailures = 0;
        this.chains.set(lane, {
          responseId: step.response.id,
          generation: result.generation,
          itemCount: context.length + step.output.length,
        });
        const now = performance.now();
        return {
          response: step.response,
          output: step.output,
          transport,
          // A chain from the warm-up holds only the instructions: the turn still sent the whole conversation.
          chained: chain !== undefined && chain.itemCount > context.length - request.items.length,
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
    const action = actionFor(fault, transport, this.opts.transport, this.reached);
    const reason = describeFault(fault);
    if (action.action === 'stop') throw new AgentStop(action.code, action.message);
    if (attempt >= this.opts.maxAttempts)
      throw new AgentStop('retries_exhausted', `Gave up after ${attempt} attempts; the last: ${reason}.`);
    // Any failed request ends its chain: the server evicts a failed continuation's parent (docs/protocol.md §3.6).
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
      headers: { 'openai-beta': WEBSOCKET_BETA, ...this.headers() },
      connectTimeoutMs: this.opts.connectTimeoutMs,
    });
    this.reached = true;
    this.channel = channel;
    return channel;
  }

  /** One request's body, the same for both transports and the warm-up. */
  private body(
    request: Omit<TurnRequest, 'items'>,
    input: readonly AnyInputItem[],
    previousResponseId: string | undefined,
    generate?: false,
  ): Record<string, unknown> {
    return requestBody({
      model: request.model,
      tools: request.tools,
      extra: request.extra,
      store: this.opts.store,
      promptCacheKey: request.promptCacheKey,
      input,
      previousResponseId,
      ...(generate === false ? { generate } : {}),
    });
  }

  private headers(): Record<string, string> {
    return {
      'user-agent': USER_AGENT,
      ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      ...this.opts.headers,
    };
  }

  /**
   * `generate: false` once per socket, carrying the instructions: a chainable id that covers them. A refusal
   * other than the credentials' never fails the task: the turn goes out without it.
   */
  private async warmUp(channel: WsChannel, request: Omit<TurnRequest, 'items'>): Promise<void> {
    if (this.warmed.has(channel)) return;
    this.warmed.add(channel);
    const lane = request.lane ?? DEFAULT_LANE;
    const context = contextOf(request.instructions, []);
    // With no instructions there is nothing to send: the API refuses a request with no input.
    if (context.length === 0) return;
    const body = this.body(request, context, undefined, false);
    const result = await this.exchangeWs(channel, 0, body, request.lane, new AbortController().signal, () => undefined);
    if (result.step.kind !== 'done') {
      const action = actionFor(result.step.fault, 'ws', this.opts.transport, this.reached);
      if (action.action === 'stop') {
        if (action.code === 'auth') throw new AgentStop(action.code, action.message);
        this.opts.emit({
          type: 'notice',
          code: 'warmup_refused',
          message: `The warm-up was refused (${describeFault(result.step.fault)}); going on without it.`,
        });
        return;
      }
      // The turn itself then goes out unchained and meets (and recovers from) whatever this was. A stalled
      // warm-up may still be streaming, and its late `response.completed` (no output) would be taken for the
      // turn's answer, ending the task early: so its socket goes, and the turn meets a closed one.
      if (action.newSocket && !channel.closed) channel.close(describeFault(result.step.fault));
      return;
    }
    if (!this.chains.has(lane) || this.chains.get(lane)?.generation !== channel.generation)
      this.chains.set(lane, {
        responseId: result.step.response.id,
        generation: channel.generation,
        itemCount: context.length,
      });
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
    return exchangeWs({
      channel,
      assembler: new ResponseAssembler(turn, emit),
      body,
      lane,
      signal,
      idleTimeoutMs: this.opts.idleTimeoutMs,
      onCancel: () => {
        // The server may still be streaming this response: the socket goes with it.
        if (this.channel === channel) this.retireChannel('cancelled mid-response');
        else channel.close('cancelled mid-response');
        this.chains.delete(lane ?? DEFAULT_LANE);
      },
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
