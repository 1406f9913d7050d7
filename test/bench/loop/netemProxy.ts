import * as net from 'node:net';

// A TCP proxy on 127.0.0.1 that makes loopback behave like a user's line, for the bench's `--network wan`:
// a round trip (half each way) and a rate per direction, so that the bytes a transport sends cost what they
// cost on a real uplink. Modelled: the propagation delay, each direction's serialisation at its rate (one
// link per direction shared by every connection, as a user's line is), and the TCP handshake (a new
// connection's first byte leaves one round trip after it was opened). Not modelled: TLS (its extra round
// trip on a new connection, as with TLS 1.3, and its bytes), TCP slow start and windows, loss, jitter.
// Bytes are never reordered or altered: each direction of a connection is a FIFO delivered in order. The
// receiver's reading does not pace the sender (no window): the bench's client and server read at once.

export interface NetemOptions {
  /** The round trip added, in ms: half on the way to the server, half on the way back. */
  rttMs: number;
  /** Client → server rate in bits per second; `Infinity`: no limit. */
  uplinkBitsPerSecond: number;
  /** Server → client rate in bits per second; `Infinity`: no limit. */
  downlinkBitsPerSecond: number;
}

/** What passed through the proxy since it started. */
export interface NetemCounters {
  /** Connections accepted: each new one paid a handshake's round trip. */
  connections: number;
  bytesUp: number;
  bytesDown: number;
}

export interface NetemProxy {
  port: number;
  counters(): NetemCounters;
  /** Stops accepting and ends every connection still open. */
  close(): Promise<void>;
}

/** At most this much is put on a link as one piece, so that a large write arrives progressively, as it would. */
const SLICE_BYTES = 16 * 1024;

/**
 * One direction of the line: a queue drained at its rate (a token bucket whose depth is one slice: no burst
 * above the line rate), then the one-way delay. Every connection's bytes in that direction share it.
 */
class Link {
  private freeAt = 0;

  constructor(
    private readonly bitsPerSecond: number,
    private readonly oneWayMs: number,
  ) {}

  /** When `bytes` that may start to leave at `earliest` (ms, performance.now()) have all reached the far end. */
  arrival(bytes: number, earliest: number): number {
    const start = Math.max(earliest, this.freeAt);
    this.freeAt = start + (Number.isFinite(this.bitsPerSecond) ? ((bytes * 8) / this.bitsPerSecond) * 1000 : 0);
    return this.freeAt + this.oneWayMs;
  }
}

type Delivery = { at: number; data: Buffer } | { at: number; end: 'end' | 'destroy' };

/** One direction of one connection: what arrived, delivered to `to` at its time over `link`, in order. */
class Pipe {
  private readonly queue: Delivery[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly to: net.Socket,
    private readonly link: Link,
    /** Nothing leaves before this time (the handshake's round trip, for the client's side). */
    private readonly readyAt: number,
  ) {}

  send(data: Buffer): void {
    for (let offset = 0; offset < data.length; offset += SLICE_BYTES) {
      const slice = data.subarray(offset, offset + SLICE_BYTES);
      this.enqueue({ at: this.link.arrival(slice.length, this.earliest()), data: slice });
    }
  }

  /** The sending side ended (`end`) or went away (`destroy`): the same reaches `to` after the bytes before it. */
  finish(how: 'end' | 'destroy'): void {
    this.enqueue({ at: this.link.arrival(0, this.earliest()), end: how });
  }

  /** `to` is gone: nothing more is delivered. */
  drop(): void {
    this.closed = true;
    this.queue.length = 0;
    clearTimeout(this.timer);
  }

  private earliest(): number {
    return Math.max(performance.now(), this.readyAt);
  }

  private enqueue(delivery: Delivery): void {
    if (this.closed) return;
    this.queue.push(delivery);
    if (this.queue.length === 1) this.pump();
  }

  private pump(): void {
    this.timer = undefined;
    const now = performance.now();
    while (!this.closed && this.queue[0] && this.queue[0].at <= now) {
      const next = this.queue.shift() as Delivery;
      if ('data' in next) this.to.write(next.data);
      else if (next.end === 'end') this.to.end();
      else this.to.destroy();
    }
    const head = this.queue[0];
    if (!this.closed && head) this.timer = setTimeout(() => this.pump(), Math.max(0, head.at - now));
  }
}

/** Starts the proxy on 127.0.0.1 (a free port) in front of `target`. */
export async function startNetemProxy(
  target: { host: string; port: number },
  options: NetemOptions,
): Promise<NetemProxy> {
  const oneWay = options.rttMs / 2;
  const up = new Link(options.uplinkBitsPerSecond, oneWay);
  const down = new Link(options.downlinkBitsPerSecond, oneWay);
  const counters: NetemCounters = { connections: 0, bytesUp: 0, bytesDown: 0 };
  const open = new Set<net.Socket>();

  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    counters.connections++;
    const upstream = net.connect({ host: target.host, port: target.port, allowHalfOpen: true, noDelay: true });
    for (const socket of [client, upstream]) {
      open.add(socket);
      // A reset on either side is part of what the proxy passes on, never an uncaught error.
      socket.on('error', () => undefined);
      socket.once('close', () => open.delete(socket));
    }
    // The client's connect returned at once on loopback; on the line its first byte leaves a round trip later.
    const toServer = new Pipe(upstream, up, performance.now() + options.rttMs);
    const toClient = new Pipe(client, down, 0);
    client.on('data', (chunk: Buffer) => {
      counters.bytesUp += chunk.length;
      toServer.send(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      counters.bytesDown += chunk.length;
      toClient.send(chunk);
    });
    client.once('end', () => toServer.finish('end'));
    upstream.once('end', () => toClient.finish('end'));
    // A side that closed without ending (a reset, a destroy) closes the other once its bytes are delivered.
    client.once('close', () => {
      toClient.drop();
      toServer.finish('destroy');
    });
    upstream.once('close', () => {
      toServer.drop();
      toClient.finish('destroy');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    counters: () => ({ ...counters }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
