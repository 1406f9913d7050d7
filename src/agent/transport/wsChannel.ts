import WebSocket from 'ws';
import { type ProxyRoute, isProxyUnreachable, proxyRefusal, proxyUnreachable, wsProxy } from './proxy';
import type { ProxyFault } from './transportFault';

// One WebSocket to `/v1/responses`. Frames are routed to the lane (`stream_id`) whose response is running;
// an `error` listener lives for the socket's whole life, so an error on an idle socket is only a close,
// never a crash of the host. What happened to the socket is kept for whoever asks next.

/** Receives the frames of one lane's running response, and the socket's end. */
export interface LaneListener {
  /** A parsed frame of this lane. */
  event(value: unknown): void;
  /** A frame that is not JSON arrived while this lane was running (whose it was cannot be known). */
  malformed(): void;
  closed(reason: string): void;
}

export interface OpenOptions {
  headers: Record<string, string>;
  /** Give up opening after this long. */
  connectTimeoutMs: number;
  /** The heartbeat while a response is running (absent: none); see {@link Heartbeat}. */
  heartbeat?: Heartbeat | undefined;
  /** The proxy to tunnel through (proxy.ts); absent: directly. */
  proxy?: ProxyRoute | undefined;
}

/**
 * A network that goes silent without a FIN (a laptop's sleep, a Wi-Fi change, a NAT that forgot the flow)
 * leaves a socket that looks open for minutes. While a response runs, a ping goes out every `intervalMs`;
 * the API's servers answer pings even while the model thinks quietly, so no pong (and no frame at all)
 * within `timeoutMs` of one means the socket is dead: it is ended, and its turn resent on a new one.
 */
export interface Heartbeat {
  intervalMs: number;
  timeoutMs: number;
}

/** Why the socket could not be opened; `status` when the server answered the upgrade with HTTP. */
export class ConnectError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryAfter: string | undefined,
    /** The socket error's code (`ECONNREFUSED`, `ENOTFOUND`…) when the connection itself failed. */
    readonly code?: string,
    /** The proxy failed, not the endpoint (`status` is then undefined: the endpoint never answered). */
    readonly proxy?: ProxyFault,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
}

/** The endpoint's refusal of the upgrade. */
function refusedUpgrade(status: number | undefined, retryAfter: string | string[] | undefined): ConnectError {
  return new ConnectError(
    `the upgrade was refused with HTTP ${status ?? '?'}`,
    status,
    typeof retryAfter === 'string' ? retryAfter : undefined,
  );
}

/** A socket error before the upgrade; through a proxy, one that says nothing answers is the proxy's. */
function connectError(error: NodeJS.ErrnoException, proxy: ProxyRoute | undefined): ConnectError {
  if (proxy && isProxyUnreachable(error.code))
    return new ConnectError(proxyUnreachable(proxy, error.message), undefined, undefined, error.code, {
      proxy: proxy.label,
      status: undefined,
    });
  return new ConnectError(error.message, undefined, undefined, error.code);
}

let generations = 0;

const DEFAULT_LANE = '';

const TERMINAL = new Set<unknown>(['response.completed', 'response.incomplete', 'response.failed']);

export class WsChannel {
  /** Distinguishes this socket from every other one of the process: the chain is valid on its own socket only. */
  readonly generation = ++generations;
  readonly openedAt = Date.now();
  bytesSent = 0;
  bytesReceived = 0;
  private closedReason: string | undefined;
  private readonly lanes = new Map<string, LaneListener>();
  /** Lanes whose running response has started (`response.created`) and not yet ended. */
  private readonly started = new Set<string>();
  /**
   * Lanes released while their response was still running (an `error` mid-stream ended the request, and the
   * API then still sends its `response.failed`): their frames are that response's, and are dropped, until
   * it ends or the next one starts.
   */
  private readonly draining = new Set<string>();
  /** Who reads every frame before its lane does (steerClient.ts: steering events come after a lane's release). */
  private readonly watchers = new Set<(value: unknown) => void>();

  /** When the unanswered ping went out (undefined: none is waiting); any frame from the server answers it. */
  private pingSentAt: number | undefined;
  private readonly beat: NodeJS.Timeout | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly heartbeat?: Heartbeat,
  ) {
    if (heartbeat) {
      this.beat = setInterval(() => this.checkPulse(heartbeat), heartbeat.intervalMs);
      this.beat.unref();
      socket.on('pong', () => (this.pingSentAt = undefined));
    }
    socket.on('error', (error) => this.end(`socket error: ${error.message}`));
    socket.on('close', (code, reason) =>
      this.end(`closed with code ${code}${reason.length > 0 ? `: ${reason.toString()}` : ''}`),
    );
    socket.on('message', (data, isBinary) => {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      this.bytesReceived += Buffer.byteLength(text);
      this.pingSentAt = undefined;
      if (isBinary) return;
      this.route(text);
    });
  }

  /** Opens a socket to `url` (`ws:` or `wss:`), through `options.proxy` if given. Rejects with {@link ConnectError}. */
  static open(url: string, options: OpenOptions): Promise<WsChannel> {
    return new Promise((resolve, reject) => {
      const proxy = options.proxy ? wsProxy(options.proxy) : undefined;
      // Compression off and no frame limit, as the 7.x SDK: a full-context create can be many MB. One frame
      // a turn of the event loop, not a whole read's frames in one go: the lanes of one socket arrive in one
      // stream, and a lane whose response just ended goes on to its tools and next request before the other
      // lanes' deltas of the same read are parsed (8 lanes: per-turn overhead p90 10.5 → 0.35 ms, as with a
      // socket each; docs/benchmark.md, the parallel bench).
      const socket = new WebSocket(url, {
        headers: options.headers,
        perMessageDeflate: false,
        maxPayload: 0,
        allowSynchronousEvents: false,
        ...(proxy ? { agent: proxy.agent, ...proxy.tls } : {}),
      });
      const timer = setTimeout(() => {
        fail(new ConnectError(`no answer to the upgrade within ${options.connectTimeoutMs} ms`, undefined, undefined));
        socket.terminate();
      }, options.connectTimeoutMs);
      let settled = false;
      const fail = (error: ConnectError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      socket.on('unexpected-response', (_request, response) => {
        const tunnel = proxy?.connectStatus();
        // The proxy's own refusal of the CONNECT comes back as the upgrade's answer: it is not the endpoint's.
        if (options.proxy && tunnel !== undefined && tunnel !== 200)
          fail(
            new ConnectError(proxyRefusal(options.proxy, tunnel), undefined, undefined, undefined, {
              proxy: options.proxy.label,
              status: tunnel,
            }),
          );
        else fail(refusedUpgrade(response.statusCode, response.headers['retry-after']));
        response.resume();
        socket.terminate();
      });
      // Until open, errors reject; the channel's own listener takes over after (and stays for good).
      socket.on('error', (error: NodeJS.ErrnoException) => fail(connectError(error, options.proxy)));
      socket.once('open', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(new WsChannel(socket, options.heartbeat));
      });
    });
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Age in milliseconds. */
  get ageMs(): number {
    return Date.now() - this.openedAt;
  }

  /** Whether any lane has a response running. */
  get busy(): boolean {
    return this.lanes.size > 0;
  }

  /** Sends one client event for `lane`, whose frames go to `listener` until {@link release}. Returns the bytes sent. */
  send(event: Record<string, unknown>, lane: string | undefined, listener: LaneListener): number {
    const key = lane ?? DEFAULT_LANE;
    if (this.closedReason !== undefined) {
      listener.closed(this.closedReason);
      return 0;
    }
    this.lanes.set(key, listener);
    const text = JSON.stringify(event);
    const bytes = Buffer.byteLength(text);
    this.bytesSent += bytes;
    this.socket.send(text);
    return bytes;
  }

  /**
   * Sends a frame that starts no response (`response.steer`): the lane's listener stays as it is, and what
   * answers it is read by a {@link watch}er. Returns the bytes sent; 0 on a closed socket.
   */
  post(event: Record<string, unknown>): number {
    if (this.closedReason !== undefined) return 0;
    const text = JSON.stringify(event);
    this.bytesSent += Buffer.byteLength(text);
    this.socket.send(text);
    return Buffer.byteLength(text);
  }

  /** Shows `watcher` every parsed frame, of any lane, before it is routed; returns the way to stop. */
  watch(watcher: (value: unknown) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** The lane's response is settled: its later frames (if any) are dropped. */
  release(lane: string | undefined): void {
    const key = lane ?? DEFAULT_LANE;
    this.lanes.delete(key);
    if (this.started.delete(key)) this.draining.add(key);
  }

  /** Closes the socket (a running response on the server is abandoned with it). */
  close(reason = 'closed by the client'): void {
    if (this.closedReason === undefined) {
      this.end(reason);
      this.socket.close(1000, reason.slice(0, 120));
      // A server that never answers the close handshake must not keep the socket open.
      setTimeout(() => this.socket.terminate(), 2000).unref();
    }
  }

  /** One beat: a ping while a response runs, and the socket ended when the last one went unanswered. */
  private checkPulse({ timeoutMs }: Heartbeat): void {
    if (this.closedReason !== undefined) return;
    if (!this.busy) {
      this.pingSentAt = undefined;
      return;
    }
    const waited = this.pingSentAt === undefined ? 0 : Date.now() - this.pingSentAt;
    if (waited >= timeoutMs) {
      this.end(`no answer to a ping within ${(timeoutMs / 1000).toFixed(1)} s: the network is gone`);
      // No close handshake: nothing would carry it.
      this.socket.terminate();
      return;
    }
    if (this.pingSentAt !== undefined) return;
    this.pingSentAt = Date.now();
    try {
      this.socket.ping();
    } catch {
      // Closing meanwhile: the socket's own events end the channel.
    }
  }

  private route(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      for (const listener of this.lanes.values()) listener.malformed();
      return;
    }
    for (const watcher of this.watchers) watcher(value);
    const lane = (value as { stream_id?: unknown } | null)?.stream_id;
    const key = typeof lane === 'string' ? lane : DEFAULT_LANE;
    if (this.passOver(key, (value as { type?: unknown } | null)?.type)) return;
    this.lanes.get(key)?.event(value);
  }

  /** Whether a frame of `type` on lane `key` belongs to a response abandoned there (and so is dropped). */
  private passOver(key: string, type: unknown): boolean {
    const response = typeof type === 'string' && type.startsWith('response.');
    if (type === 'response.created') {
      this.draining.delete(key);
      this.started.add(key);
      return false;
    }
    if (response && TERMINAL.has(type)) {
      this.started.delete(key);
      // The abandoned response's own end: nothing of it is left to drop.
      if (this.draining.delete(key)) return true;
      return false;
    }
    // An `error` frame may be a refusal of the request just sent: it always goes through.
    return response && this.draining.has(key);
  }

  private end(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    clearInterval(this.beat);
    const listeners = [...this.lanes.values()];
    this.lanes.clear();
    for (const listener of listeners) listener.closed(reason);
  }
}
