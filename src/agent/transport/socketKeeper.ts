import type { AgentEventSink } from '../events';
import { WEBSOCKET_BETA } from './requestBody';
import type { ProxyRoute } from './proxy';
import { AgentStop } from './transportFault';
import { type Heartbeat, WsChannel } from './wsChannel';

// The session's one socket at a time: opened on first use (one opening shared by whoever asks meanwhile),
// rotated before the connection age limit — between turns, never mid-response — and retired after a fault,
// a cancel or a fallback to HTTP, so that the next request opens a new one.

export interface SocketOptions {
  /** The session's base URL (`http://…/v1`); the socket goes to its `ws://…/v1/responses`. */
  endpoint: string;
  /** The headers of the upgrade, besides the WebSocket beta's. */
  headers: () => Record<string, string>;
  /** Rotate a socket older than this, between turns (the API closes them at 60 minutes). */
  rotateAfterMs: number;
  connectTimeoutMs: number;
  heartbeat: Heartbeat;
  /** The proxy the socket tunnels through; absent: directly. */
  proxy: ProxyRoute | undefined;
  emit: AgentEventSink;
  /** A socket opened: the endpoint is there. */
  onOpen: () => void;
}

export class SocketKeeper {
  private channel: WsChannel | undefined;
  private opening: Promise<WsChannel> | undefined;
  private readonly warmed = new WeakSet<WsChannel>();
  private closed = false;

  constructor(private readonly options: SocketOptions) {}

  /** The generation of the socket now open, if any: a chain is valid on its own socket only. */
  get generation(): number | undefined {
    const channel = this.channel;
    return channel && !channel.closed ? channel.generation : undefined;
  }

  /**
   * The socket for the next request: the current one, or a new one when there is none, it has closed, or it
   * is old and idle. Rejects with the socket's `ConnectError`, or {@link AgentStop} once the session is closed.
   */
  async current(): Promise<WsChannel> {
    if (this.closed) throw new AgentStop('closed', 'The session is closed.');
    const current = this.channel;
    if (current && !current.closed) {
      if (current.ageMs < this.options.rotateAfterMs || current.busy) return current;
      // Rotation happens here, between turns, never mid-response.
      this.retire('rotated before the connection age limit');
    }
    this.opening ??= this.open().finally(() => (this.opening = undefined));
    return this.opening;
  }

  /** Whether `channel` is used for the first time (and so needs its warm-up): true once per socket. */
  firstUse(channel: WsChannel): boolean {
    if (this.warmed.has(channel)) return false;
    this.warmed.add(channel);
    return true;
  }

  /** The current socket goes (a fault, a fallback): the next request opens a new one. */
  retire(reason: string): void {
    const channel = this.channel;
    this.channel = undefined;
    channel?.close(reason);
  }

  /** A response was cancelled on `channel`: the server may still be streaming it, so the socket goes with it. */
  cancelled(channel: WsChannel): void {
    if (this.channel === channel) this.retire('cancelled mid-response');
    else channel.close('cancelled mid-response');
  }

  /** Closes the socket for good: the next request is refused. */
  close(): void {
    this.closed = true;
    this.retire('session closed');
  }

  private async open(): Promise<WsChannel> {
    this.options.emit({ type: 'transport', state: 'connecting', transport: 'ws' });
    const url = `${this.options.endpoint.replace(/\/+$/, '').replace(/^http/, 'ws')}/responses`;
    const channel = await WsChannel.open(url, {
      headers: { 'openai-beta': WEBSOCKET_BETA, ...this.options.headers() },
      connectTimeoutMs: this.options.connectTimeoutMs,
      heartbeat: this.options.heartbeat,
      proxy: this.options.proxy,
    });
    this.options.onOpen();
    this.channel = channel;
    return channel;
  }
}
