import type { RawData, WebSocket } from 'ws';
import { ResponseCreateEvent, StreamId, connectionLimitReached, decodeJson, parseWire } from '../protocol';
import { type Refusal, refusals, wsErrorEvent } from './apiErrors';
import { ConnectionCache } from './connectionCache';
import { missingInput } from './inputChecks';
import { previousIdOf } from './httpBody';
import { DEFAULT_LANE, LaneScheduler } from './laneScheduler';
import type { ResolvedOptions } from './serverOptions';
import type { StateBudget } from './stateBudget';
import { SteerDesk, type SteeredRun } from './steerDesk';
import type { TurnSink } from './turnEmitter';
import type { Refused, TurnService } from './turnService';
import type { TurnOutcome } from './responseTurn';
import { steerFields } from './steerEvents';
import { type WireLog, typeOf } from './wireLog';

export interface WsContext {
  options: ResolvedOptions;
  service: TurnService;
  wireLog: WireLog;
  budget: StateBudget;
}

/**
 * One WebSocket-mode connection: `response.create` turns on FIFO lanes, chained through this socket's own
 * cache (docs/protocol.md §3), and its age limit. Every failure is answered with an `error` event; none closes the
 * socket except the age limit.
 */
export class WsConnection {
  readonly cache: ConnectionCache;
  private readonly lanes: LaneScheduler;
  /** Steering (docs/protocol.md §13): which responses take steers, and what follows a steered one. */
  private readonly desk = new SteerDesk(
    (event) => this.send(event),
    (refused) => this.refuse(refused),
  );
  /** The latest completed response of each lane: the parent a failed same-lane continuation evicts (§3.6). */
  private readonly latest = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private expired = false;
  private limitSent = false;
  readonly closed: Promise<void>;

  constructor(
    readonly id: string,
    private readonly socket: WebSocket,
    private readonly ctx: WsContext,
  ) {
    const { limits, maxConnectionS } = ctx.options;
    this.cache = new ConnectionCache(id, limits.cachedResponsesPerConnection, ctx.budget);
    this.lanes = new LaneScheduler(limits.activeResponsesPerConnection, limits.namedLanesPerConnection);
    this.timer = setTimeout(() => this.expire(), maxConnectionS * 1000);
    this.timer.unref();
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        clearTimeout(this.timer);
        this.lanes.clear();
        this.cache.clear();
        ctx.wireLog.record({ conn: id, transport: 'ws', type: 'close' });
        resolve();
      }),
    );
    // An error on an idle socket must never go unheard (CONTRIBUTING.md, Style): log it; 'close' follows.
    socket.on('error', (error) => ctx.options.log(`ws ${id}: ${error.message}`));
    socket.on('message', (data, isBinary) => {
      try {
        this.onMessage(data, isBinary);
      } catch (error) {
        // A bug here must cost this one frame an error event, never the process.
        ctx.options.log(`ws ${id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        this.refuse(refusals.internal());
      }
    });
    ctx.wireLog.record({ conn: id, transport: 'ws', type: 'open' });
  }

  /** Cuts the connection without a closing handshake (admin, shutdown). */
  terminate(): void {
    this.socket.terminate();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength;
    if (isBinary) {
      this.logIn('binary', bytes, undefined);
      return this.refuse(refusals.binaryFrame());
    }
    const started = performance.now();
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const json = decodeJson(text);
    const type = json.ok ? typeOf(json.value) : 'invalid';
    // A steer's line names its target as a request's names its parent.
    const chained = json.ok && (type === 'response.create' || type === 'response.steer');
    this.logIn(
      type,
      bytes,
      chained ? previousIdOf(json.value) : undefined,
      type === 'response.create' && json.ok ? this.ctx.wireLog.bodyOf(json.value) : {},
    );
    if (!json.ok) return this.refuse(refusals.invalidBody(json.error));
    switch (type) {
      case 'response.create':
        return this.create(json.value as Record<string, unknown>, started);
      case 'response.processed':
        return;
      case 'response.steer':
        return this.desk.submit(json.value as Record<string, unknown>);
      case 'invalid':
        return this.refuse(
          refusals.invalidBody({
            code: 'invalid_value',
            message: "Missing required parameter: 'type'.",
            param: 'type',
          }),
        );
      default:
        return this.refuse(refusals.unknownEvent(type));
    }
  }

  private create(event: Record<string, unknown>, started: number): void {
    const rawStreamId = event.stream_id;
    const named = typeof rawStreamId === 'string' ? rawStreamId : undefined;
    if (rawStreamId !== undefined && !StreamId.safeParse(rawStreamId).success)
      return this.refuse(refusals.invalidStreamId(), named);
    const parsed = parseWire(ResponseCreateEvent, event);
    if (!parsed.ok) return this.refuse(refusals.invalidBody(parsed.error), named);
    const request = parsed.value;
    if (request.background === true) return this.refuse(refusals.backgroundOverWebSocket(), named);
    if (request.model === undefined) return this.refuse(refusals.missingModel(), named);
    const noInput = missingInput(request);
    if (noInput) return this.refuse(noInput, named);
    if (this.expired) return this.refuseOverLimit(named);
    const lane = named ?? DEFAULT_LANE;
    if (!this.lanes.admit(lane))
      return this.refuse(refusals.streamLimit(this.ctx.options.limits.namedLanesPerConnection), named);
    const parseMs = performance.now() - started;
    this.lanes.push(lane, () => this.run(request, lane, named, parseMs));
  }

  /**
   * Runs a request on its lane, then each automatic successor a steer calls for (§13.3): on the same lane,
   * before anything queued behind it.
   */
  private async run(
    request: ResponseCreateEvent,
    lane: string,
    streamId: string | undefined,
    parseMs: number,
  ): Promise<void> {
    if (this.expired) return this.refuseOverLimit(streamId);
    let turn = this.desk.explicit(request);
    for (;;) {
      const run = this.desk.start(turn);
      const outcome = await this.runOne(run, lane, streamId, turn.automatic ? 0 : parseMs);
      const next = this.desk.settle(run, outcome);
      if (!next) return;
      turn = next;
    }
  }

  /** One response; a refusal is told the client in an `error` event unless nobody asked for the response. */
  private async runOne(
    run: SteeredRun,
    lane: string,
    streamId: string | undefined,
    parseMs: number,
  ): Promise<TurnOutcome | Refused | undefined> {
    const { request, automatic } = run.turn;
    const answer = (refused: Refusal, headers?: Record<string, string>) => {
      if (!automatic) this.send(wsErrorEvent(refused, streamId, headers));
    };
    try {
      const outcome = await this.ctx.service.run(request, 'ws', this.sink(), {
        cache: this.cache,
        streamId,
        parseMs,
        steering: run,
      });
      const parent = request.previous_response_id ?? undefined;
      switch (outcome.kind) {
        case 'completed':
          this.latest.set(lane, outcome.response.id);
          break;
        case 'not_found':
          answer(outcome.refusal);
          break;
        case 'invalid':
          // A 4xx continuation: its parent leaves this lane's cache, as for any failed one (§3.6).
          answer(outcome.refusal);
          this.evictFailedParent(lane, parent);
          break;
        case 'refused': {
          const headers =
            outcome.retryAfterS === undefined ? undefined : { 'retry-after': String(outcome.retryAfterS) };
          answer({ status: outcome.status, error: outcome.error }, headers);
          this.evictFailedParent(lane, parent);
          break;
        }
        case 'failed':
          this.evictFailedParent(lane, parent);
          break;
        case 'aborted':
          break;
      }
      return outcome;
    } catch (error) {
      this.ctx.options.log(`ws ${this.id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      answer(refusals.internal());
      return undefined;
    }
  }

  private evictFailedParent(lane: string, parent: string | undefined): void {
    if (parent !== undefined && this.latest.get(lane) === parent) {
      this.cache.delete(parent);
      this.latest.delete(lane);
    }
  }

  /** The age limit: refuse new work, let running responses finish, then say so and close. */
  private expire(): void {
    this.expired = true;
    void this.lanes.whenIdle().then(() => {
      if (this.socket.readyState !== this.socket.OPEN) return;
      if (!this.limitSent) this.refuseOverLimit(undefined);
      this.socket.close(1001, 'connection age limit reached');
    });
  }

  private refuseOverLimit(streamId: string | undefined): void {
    this.limitSent = true;
    const minutes = Number((this.ctx.options.maxConnectionS / 60).toFixed(2));
    const event = connectionLimitReached(minutes);
    this.send(streamId === undefined ? event : { ...event, stream_id: streamId });
    if (this.lanes.idle) this.socket.close(1001, 'connection age limit reached');
  }

  private refuse(refused: Refusal, streamId?: string): void {
    this.send(wsErrorEvent(refused, streamId));
  }

  private send(event: Record<string, unknown>): void {
    this.sendText(JSON.stringify(event), String(event.type), event);
  }

  private sendText(text: string, type: string, event?: Record<string, unknown>): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(text);
    if (!this.ctx.wireLog.enabled) return;
    const bytes = Buffer.byteLength(text);
    this.ctx.wireLog.record({
      conn: this.id,
      transport: 'ws',
      dir: 'out',
      type,
      bytes,
      ...(event && steerFields(event)),
    });
  }

  private logIn(type: string, bytes: number, previous: string | null | undefined, body: { body?: unknown } = {}): void {
    this.ctx.wireLog.record({
      conn: this.id,
      transport: 'ws',
      dir: 'in',
      type,
      bytes,
      ...(previous === undefined ? {} : { previous_response_id: previous }),
      ...body,
    });
  }

  private sink(): TurnSink {
    const socket = this.socket;
    return {
      send: (event) => this.send(event),
      sendRaw: (text) => this.sendText(text, 'invalid'),
      drop: () => socket.terminate(),
      get open() {
        return socket.readyState === socket.OPEN;
      },
      gone: this.closed,
    };
  }
}
