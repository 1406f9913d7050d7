import { t } from '@vscode/l10n';
import { type AnyInputItem, type CompactedResponse, refusesEveryRequest } from '../../protocol';
import { compactContext } from './compactExchange';
import { type Chain, ChainPolicy, DEFAULT_LANE, type Route } from './chainPolicy';
import type { AgentEventSink } from '../events';
import { httpAttempt } from './httpExchange';
import { type ProxyRoute, proxyRoute } from './proxy';
import { contextOf, requestBody, requestHeaders } from './requestBody';
import { ResponseAssembler } from './responseAssembler';
import { actionFor, retryDelayMs, waitToRetry } from './retryPolicy';
import {
  type ResolvedTransportOptions,
  type TransportOptions,
  type TurnOutcome,
  type TurnRequest,
  withDefaults,
} from './transportOptions';
import { SocketKeeper } from './socketKeeper';
import type { SteerClient } from './steerClient';
import { SuccessorFollower } from './successorFollower';
import { faultDisplay } from './faultDisplay';
import { AgentStop, type TransportFault, TurnCancelled, describeFault } from './transportFault';
import { ConnectError, type WsChannel } from './wsChannel';
import { type Sent, type Totals, outcomeOf } from './turnAttempt';
import { type Attempt, connectFailed, exchangeWs } from './wsExchange';

// One logical session over rotating sockets. The caller always hands over the whole transcript; this
// decides what goes on the wire: `previous_response_id` and only the new items when that response
// completed on the current socket, the full context otherwise (chainPolicy.ts keeps that rule, and
// socketKeeper.ts the socket). Faults are retried per retryPolicy.ts; a lost cache costs one full request
// and loses nothing.

export type { TransportOptions, TransportMode, TurnOutcome, TurnRequest } from './transportOptions';

/** How long a warm-up may take before the first turn goes out without it. */
export const WARMUP_TIMEOUT_MS = 2_000;

export class ModelTransport {
  private readonly sockets: SocketKeeper;
  private readonly chains: ChainPolicy;
  private wsFailures = 0;
  /** Whether the endpoint has answered once: until then, nothing listening there is a stop, not a blip. */
  private reached = false;
  private onHttp: boolean;
  /** A warm-up failed once: the server does not take them, and the session stops sending them. */
  private warmupsOff = false;
  private readonly opts: ResolvedTransportOptions;
  /** The proxy every request of the session goes through (one endpoint, so one route), if any. */
  private readonly proxy: ProxyRoute | undefined;

  constructor(options: TransportOptions) {
    this.opts = withDefaults(options);
    this.proxy = proxyRoute(this.opts.endpoint, this.opts.proxy);
    this.onHttp = options.transport === 'http';
    this.chains = new ChainPolicy(this.opts.chain, this.opts.store);
    this.sockets = new SocketKeeper({
      endpoint: this.opts.endpoint,
      headers: () => requestHeaders(this.opts.apiKey, this.opts.headers),
      rotateAfterMs: this.opts.rotateAfterMs,
      connectTimeoutMs: this.opts.connectTimeoutMs,
      heartbeat: { intervalMs: this.opts.pingIntervalMs, timeoutMs: this.opts.pongTimeoutMs },
      proxy: this.proxy,
      emit: this.opts.emit,
      onOpen: () => (this.reached = true),
    });
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
      const channel = await this.sockets.current();
      await this.warmUp(channel, warmup);
    } catch (error) {
      if (error instanceof AgentStop) throw error;
      // The first turn retries (and may fall back); starting never fails the session on its own.
      this.opts.emit({
        type: 'notice',
        code: 'warmup_failed',
        message: t('The warm-up failed ({0}); the first turn connects again.', (error as Error).message),
      });
    }
  }

  /**
   * Opens the socket ahead of the first request (the chat panel showing is a sign one is coming), so that
   * request pays no handshake. Silent: a socket that cannot open now is the first turn's to retry and report.
   */
  async preconnect(): Promise<boolean> {
    if (this.onHttp) return false;
    return this.sockets.current().then(
      () => true,
      () => false,
    );
  }

  /** Runs one turn to its completed response, retrying faults. Throws {@link AgentStop} or {@link TurnCancelled}. */
  async run(turn: number, request: TurnRequest, signal: AbortSignal): Promise<TurnOutcome> {
    const lane = request.lane ?? DEFAULT_LANE;
    const emit = request.emit ?? this.opts.emit;
    const totals: Totals = { bytesSent: 0, bytesReceived: 0, firstSentAt: undefined };
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new TurnCancelled();
      const transport = this.transport;
      const sent = await this.send(turn, request, lane, signal, emit);
      const { step, assembler } = sent.result;
      totals.firstSentAt ??= sent.result.sentAt;
      totals.bytesSent += sent.result.bytesSent;
      totals.bytesReceived += sent.result.bytesReceived;
      if (!(step.kind === 'fault' && step.fault.kind === 'connect_failed' && step.fault.status === undefined))
        this.reached = true;
      if (step.kind === 'done') {
        if (transport === 'ws') this.wsFailures = 0;
        this.completed(lane, request, sent.result, step);
        return outcomeOf(sent, step, { transport, attempts: attempt, totals, newItems: request.items.length });
      }
      // Only what was shown needs taking back: a refusal right after `response.created` showed nothing.
      if (assembler.firstDeltaAt !== undefined)
        emit({ type: 'output_discarded', turn, reason: faultDisplay(step.fault) });
      await this.recover(turn, attempt, lane, transport, step.fault, signal, emit);
    }
  }

  /** One attempt at a turn: the context, chained on the lane's last response where it may be, sent and answered. */
  private async send(
    turn: number,
    request: TurnRequest,
    lane: string,
    signal: AbortSignal,
    emit: AgentEventSink,
  ): Promise<Sent> {
    const context = contextOf(request.instructions, request.items);
    let chain: Chain | undefined;
    let input = context;
    try {
      const channel = this.transport === 'ws' ? await this.readyChannel(request) : undefined;
      chain = this.chains.usable(lane, context, this.route());
      if (chain) input = context.slice(chain.itemCount);
      const body = this.body(request, input, chain?.responseId);
      request.start?.mark('body');
      const attempt = channel
        ? this.exchangeWs(channel, turn, body, request.lane, signal, emit, request.steering)
        : httpAttempt({
            endpoint: this.opts.endpoint,
            turn,
            body,
            headers: requestHeaders(this.opts.apiKey, this.opts.headers),
            signal,
            idleTimeoutMs: this.opts.idleTimeoutMs,
            emit,
            proxy: this.proxy,
            onCancel: () => this.chains.broken(DEFAULT_LANE),
          });
      // Over the socket the body went out before exchangeWs returned; over HTTP it is fetch's now.
      request.start?.mark('socket');
      return { result: await attempt, chain, context, input };
    } catch (error) {
      if (!(error instanceof ConnectError)) throw error;
      return { result: connectFailed(turn, error), chain, context, input };
    }
  }

  /** A response completed: the lane's chain now ends with it. */
  private completed(
    lane: string,
    request: TurnRequest,
    result: Attempt,
    step: Extract<Attempt['step'], { kind: 'done' }>,
  ): void {
    // After a compaction in this output the context the server holds is the compacted one; responses a steer
    // ended, and the steers their successors took, are in it before this one's output.
    const steered = (result.steered ?? []).flatMap((segment) => [...segment.output, ...segment.steers]);
    const held = contextOf(request.instructions, [...request.items, ...steered, ...step.output]);
    this.chains.completed(lane, {
      responseId: step.response.id,
      generation: result.generation,
      itemCount: held.length,
      last: held.at(-1),
    });
  }

  /**
   * Compacts `items` with `POST /responses/compact` (HTTP, whatever the turns use). The lane's chain ends:
   * the next turn sends the compacted context in full.
   */
  async compact(request: TurnRequest, signal: AbortSignal): Promise<CompactedResponse> {
    const compacted = await compactContext({
      endpoint: this.opts.endpoint,
      headers: requestHeaders(this.opts.apiKey, this.opts.headers),
      model: request.model,
      input: contextOf(request.instructions, request.items),
      promptCacheKey: request.promptCacheKey,
      signal,
      proxy: this.proxy,
    });
    this.reached = true;
    this.chains.broken(request.lane ?? DEFAULT_LANE);
    return compacted;
  }

  /**
   * `lane` starts from a fork of `source`'s conversation (chainPolicy.ts): its first request chains from
   * the response `source` last made on this socket where it can, and sends the whole context otherwise.
   */
  forkLane(lane: string, source: string = DEFAULT_LANE): void {
    this.chains.fork(lane, source);
  }

  /**
   * Closes the socket; the session can still be resumed by a new transport with the same transcript.
   * `announce: false` when the task's `done` must stay the last event.
   */
  close(announce = true): void {
    this.sockets.close();
    if (announce) this.opts.emit({ type: 'transport', state: 'closed', transport: this.transport });
  }

  /** Where the next request goes, for the chain policy: HTTP, or the current socket while it is open. */
  private route(): Route {
    return this.transport === 'http' ? { transport: 'http' } : { transport: 'ws', generation: this.sockets.generation };
  }

  /**
   * What a fault does before the resend: stop, or end the lane's chain, replace the socket or fall back to
   * HTTP as the policy says, and wait. Throws {@link AgentStop}, or {@link TurnCancelled} while waiting.
   */
  private async recover(
    turn: number,
    attempt: number,
    lane: string,
    transport: 'ws' | 'http',
    fault: TransportFault,
    signal: AbortSignal,
    emit: AgentEventSink,
  ): Promise<void> {
    const action = actionFor(fault, transport, this.opts.transport, this.reached);
    // The events' and the stop's reason is the person's (their language); a closing socket's, the log's (English).
    const reason = faultDisplay(fault);
    if (action.action === 'stop') throw new AgentStop(action.code, action.message);
    if (attempt >= this.opts.maxAttempts)
      throw new AgentStop('retries_exhausted', t('Gave up after {0} attempts; the last: {1}.', attempt, reason));
    this.chains.broken(lane);
    if (action.newSocket && transport === 'ws') this.sockets.retire(describeFault(fault));
    if (transport === 'ws' && action.transportFailure) this.wsFailures++;
    if (
      this.opts.transport === 'auto' &&
      !this.onHttp &&
      (action.fallBack || this.wsFailures >= this.opts.wsFailuresBeforeFallback)
    ) {
      this.onHttp = true;
      this.sockets.retire('falling back to HTTP');
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
    const delayMs = retryDelayMs(action.delayMs, attempt, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
    emit({ type: 'retry', turn, attempt: attempt + 1, reason, delayMs, fullContext: true });
    if (delayMs > 0) await waitToRetry(delayMs, signal);
  }

  /** The body of `request` as a first attempt over HTTP sends it: the whole context, and `stream: true`. */
  protected httpBody(request: TurnRequest): Record<string, unknown> {
    return { ...this.body(request, contextOf(request.instructions, request.items), undefined), stream: true };
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
      compactThreshold: request.compactThreshold,
    });
  }

  /**
   * `generate: false` once per socket, carrying the instructions: a chainable id that covers them. It never
   * fails the task: any answer but a refusal of the credentials, or one the account gives every request (no
   * quota, an unknown model) — another refusal, a malformed answer, no answer within {@link WARMUP_TIMEOUT_MS}
   * — is one notice, the turn goes out with the whole context, and the session warms up no more (a server
   * that refused one would refuse the next).
   */
  private async warmUp(channel: WsChannel, request: Omit<TurnRequest, 'items'>): Promise<void> {
    if (this.warmupsOff || !this.sockets.firstUse(channel)) return;
    const lane = request.lane ?? DEFAULT_LANE;
    const context = contextOf(request.instructions, []);
    // With no instructions there is nothing to send: the API refuses a request with no input.
    if (context.length === 0) return;
    const body = this.body(request, context, undefined, false);
    const giveUp = AbortSignal.timeout(WARMUP_TIMEOUT_MS);
    let result: Attempt;
    try {
      result = await this.exchangeWs(channel, 0, body, request.lane, giveUp, () => undefined);
    } catch (error) {
      if (!(error instanceof TurnCancelled)) throw error;
      // The socket went with the cancel (it may still be streaming the warm-up): the turn opens a new one.
      return this.skipWarmups(`no answer within ${WARMUP_TIMEOUT_MS / 1000} s`);
    }
    if (result.step.kind !== 'done') {
      const action = actionFor(result.step.fault, 'ws', this.opts.transport, this.reached);
      // A refused key, or a refusal the account gives every request (no quota, an unknown model): the first
      // turn would meet it too, so the task stops here, after this one request.
      if (action.action === 'stop' && (action.code === 'auth' || refusesEveryRequest(action.code)))
        throw new AgentStop(action.code, action.message);
      // A stalled or malformed warm-up may still be streaming, and its late `response.completed` (no output)
      // would be taken for the turn's answer, ending the task early: so its socket goes, and the turn opens
      // another.
      if (action.action === 'retry' && action.newSocket && !channel.closed)
        channel.close(describeFault(result.step.fault));
      return this.skipWarmups(describeFault(result.step.fault));
    }
    this.chains.warmedUp(lane, {
      responseId: result.step.response.id,
      generation: channel.generation,
      itemCount: context.length,
    });
    this.opts.emit({ type: 'transport', state: 'warm', transport: 'ws' });
  }

  private skipWarmups(reason: string): void {
    this.warmupsOff = true;
    this.opts.emit({
      type: 'notice',
      code: 'warmup_refused',
      message: t('The warm-up was refused ({0}); going on without it.', reason),
    });
  }

  /** The socket this turn goes over: open, rotated if old, and warmed up once. */
  private async readyChannel(request: TurnRequest): Promise<WsChannel> {
    const channel = await this.sockets.current();
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
    steering?: SteerClient,
  ): Promise<Attempt> {
    const assembler = new ResponseAssembler(turn, emit);
    steering?.begin(channel, lane, turn, emit);
    return exchangeWs({
      channel,
      assembler,
      body,
      lane,
      signal,
      idleTimeoutMs: this.opts.idleTimeoutMs,
      follow: steering && new SuccessorFollower(assembler, steering, () => new ResponseAssembler(turn, emit)),
      onEnd: steering && ((faulted) => steering.end(faulted)),
      onCancel: () => {
        this.sockets.cancelled(channel);
        this.chains.broken(lane ?? DEFAULT_LANE);
      },
    });
  }
}
