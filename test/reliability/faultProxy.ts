import * as net from 'node:net';

// A TCP proxy on 127.0.0.1 between the agent and the bundled server, for the faults the server cannot
// inject on itself: a socket closed at any byte of a stream (mid-frame, mid-header, mid-request), bytes
// held back, a frame cut short, a frame corrupted, connections refused. It reads just enough of the
// server's bytes (HTTP heads, chunked encoding, WebSocket frame headers) to aim at a frame; it never
// re-encodes anything, so every byte that is not a fault passes as the server wrote it.
//
// Corruption: over TLS (every real endpoint) a flipped byte fails its record's MAC and the connection
// drops, so a corrupted byte can never reach the agent as data. A plain flip here could: a letter changed
// inside a JSON string is still valid JSON (an apply_patch input quietly altered). So corruption is
// modelled only in forms the receiver must detect: the TLS drop itself, or a byte that breaks the framing
// (a reserved WebSocket header bit, a non-hex chunk size, a bad HTTP version) or the encoding (0xFF is
// never UTF-8, and a WebSocket text frame must be UTF-8). Each ends the connection with an error.

/** How a corruption shows: a TLS record failing its MAC, a broken frame header, or invalid UTF-8 in a text frame. */
export type Corruption = 'tls' | 'header' | 'payload';

/**
 * A fault for the next request through the proxy (and the response that follows on its connection).
 * Offsets count from where that request began; a fault aimed past the end of its response fires later
 * on the same connection, or never when the connection goes first (then it is not counted as fired).
 */
export type ProxyFault =
  /** Close one side once `offset` more bytes of the response (or of the request) have passed. */
  | { kind: 'cut'; stream: 'response' | 'request'; side: 'client' | 'upstream'; offset: number }
  /** Hold the response's bytes from `offset` on for `ms`, then let them go. */
  | { kind: 'stall'; offset: number; ms: number }
  /** Pass the first `keep` (0..1) of the response's frame number `frame`, then end the connection. */
  | { kind: 'truncate'; frame: number; keep: number }
  /** Corrupt the response's frame number `frame` as `how`, at `at` (0..1) of it. */
  | { kind: 'corrupt'; frame: number; how: Corruption; at: number }
  /** Reset every open connection now, and the next `connections` new ones before they carry a byte. */
  | { kind: 'refuse'; connections: number };

/** One unit of what the server sends: an HTTP head, a chunk, a fixed-length body, or a WebSocket frame. */
interface Unit {
  kind: 'head' | 'chunk' | 'body' | 'ws';
  /** Offset of its first byte in the connection's downstream bytes. */
  start: number;
  /** Whole length, header included; undefined until its header is complete (or for a body read to close). */
  length: number | undefined;
  /** The bytes before the payload (a WebSocket header, a chunk-size line). */
  headerLength: number;
  /** A WebSocket frame's opcode. */
  opcode?: number;
}

/** Splits a connection's downstream bytes into units, as they arrive. Assumes a well-behaved server. */
class StreamUnits {
  readonly units: Unit[] = [];
  private mode: 'head' | 'ws' | 'chunked' | 'raw' = 'head';
  private offset = 0;
  private header: number[] = [];
  private remaining = 0;
  private current: Unit | undefined;

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        this.remaining -= n;
        this.offset += n;
        i += n;
        continue;
      }
      const byte = chunk[i] as number;
      i++;
      this.offset++;
      if (this.mode === 'raw') continue;
      if (!this.current) {
        this.current = { kind: this.unitKind(), start: this.offset - 1, length: undefined, headerLength: 0 };
        this.units.push(this.current);
        this.header = [];
      }
      this.header.push(byte);
      this.headerByte(this.current);
    }
  }

  private unitKind(): Unit['kind'] {
    return this.mode === 'ws' ? 'ws' : this.mode === 'chunked' ? 'chunk' : 'head';
  }

  /** Takes one more header byte of `unit`; when its header is complete, sets its length and what follows. */
  private headerByte(unit: Unit): void {
    const h = this.header;
    const crlf = h.length >= 2 && h[h.length - 2] === 13 && h[h.length - 1] === 10;
    if (unit.kind === 'head') {
      if (!(crlf && h.length >= 4 && h[h.length - 4] === 13 && h[h.length - 3] === 10)) return;
      unit.length = unit.headerLength = h.length;
      this.current = undefined;
      const text = Buffer.from(h).toString('latin1');
      const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      if (/^HTTP\/1\.\d 101/.test(text)) this.mode = 'ws';
      else if (/\r\ntransfer-encoding:\s*chunked/i.test(text)) this.mode = 'chunked';
      else if (contentLength) this.body(Number(contentLength[1]));
      else this.mode = 'raw';
    } else if (unit.kind === 'chunk') {
      if (!crlf) return;
      const size = parseInt(Buffer.from(h).toString('latin1'), 16);
      unit.headerLength = h.length;
      // The chunk's data and its CRLF; the last chunk ("0\r\n") is followed by the CRLF that ends the body.
      this.remaining = size + 2;
      unit.length = h.length + this.remaining;
      this.current = undefined;
      if (size === 0) this.mode = 'head';
    } else {
      if (h.length < 2) return;
      const len7 = (h[1] as number) & 0x7f;
      const needed = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + ((h[1] as number) & 0x80 ? 4 : 0);
      if (h.length < needed) return;
      const buffer = Buffer.from(h);
      const payload = len7 === 126 ? buffer.readUInt16BE(2) : len7 === 127 ? Number(buffer.readBigUInt64BE(2)) : len7;
      unit.opcode = (h[0] as number) & 0x0f;
      unit.headerLength = needed;
      unit.length = needed + payload;
      this.remaining = payload;
      this.current = undefined;
    }
  }

  private body(length: number): void {
    this.mode = 'head';
    if (length === 0) return;
    this.units.push({ kind: 'body', start: this.offset, length, headerLength: 0 });
    this.remaining = length;
  }
}

/** A fault waiting for its request, with the name it is counted under. */
interface Armed {
  fault: Exclude<ProxyFault, { kind: 'refuse' }>;
  label: string;
}

/** What a bound fault does at a downstream offset. */
type Action =
  | { at: number; do: 'reset' | 'end' | 'wait' }
  | { at: number; do: 'stall'; ms: number }
  | { at: number; do: 'patch'; patch: (byte: number) => number };

/** One proxied connection: client socket, upstream socket, and the fault bound to it (if any). */
class Link {
  private readonly units = new StreamUnits();
  private queue: Buffer = Buffer.alloc(0);
  /** Downstream bytes received from the server / written to the client; upstream bytes forwarded. */
  private received = 0;
  private sent = 0;
  private forwarded = 0;
  private holding = false;
  private upstreamEnded = false;
  private dead = false;
  private fault: (Armed & { down: number; up: number }) | undefined;

  constructor(
    readonly client: net.Socket,
    private readonly upstream: net.Socket,
    private readonly proxy: FaultProxy,
  ) {
    // Resets and aborts are what this proxy is for: every error only ends the link, never the process.
    client.on('error', () => this.kill());
    upstream.on('error', () => this.kill());
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    upstream.on('data', (chunk: Buffer) => this.fromServer(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => {
      this.upstreamEnded = true;
      this.flush();
    });
    client.on('close', () => this.kill());
    // A clean end of the server's side is passed on once its last bytes are out (see flush); an error is not.
    upstream.on('close', (hadError) => (hadError || !this.upstreamEnded ? this.kill() : undefined));
  }

  /** A reset, both ways: what a dropped TLS connection or a refused one looks like to the agent. */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    // Once the client's side was ended (a FIN queued) there is no reset to send, and Node 20 never settles a
    // reset that races its shutdown: the process then spins at exit. A plain destroy ends such a socket.
    if (this.client.writableEnded) this.client.destroy();
    else if (!this.client.destroyed) this.client.resetAndDestroy();
    this.upstream.destroy();
    this.proxy.forget(this);
  }

  private fromClient(chunk: Buffer): void {
    if (this.dead) return;
    if (!this.fault) {
      const armed = this.proxy.take();
      if (armed) this.fault = { ...armed, down: this.received, up: this.forwarded };
    }
    const f = this.fault?.fault;
    if (f?.kind === 'cut' && f.stream === 'request') {
      const at = (this.fault?.up ?? 0) + f.offset;
      if (this.forwarded + chunk.length >= at) {
        this.upstream.write(chunk.subarray(0, at - this.forwarded));
        this.proxy.count(this.fault?.label ?? f.kind);
        return f.side === 'client' ? this.kill() : this.endBoth();
      }
    }
    this.forwarded += chunk.length;
    this.upstream.write(chunk);
  }

  private fromServer(chunk: Buffer): void {
    if (this.dead) return;
    this.units.push(chunk);
    this.received += chunk.length;
    this.queue = this.queue.length === 0 ? chunk : Buffer.concat([this.queue, chunk]);
    this.flush();
  }

  private flush(): void {
    while (!this.dead && !this.holding && this.queue.length > 0) {
      const action = this.action();
      const end = this.sent + this.queue.length;
      if (!action || action.at >= end) {
        this.write(this.queue.length);
        break;
      }
      this.write(action.at - this.sent);
      if (action.do === 'wait') return;
      if (this.fault) this.proxy.count(this.fault.label);
      this.fault = undefined;
      if (action.do === 'patch') {
        const head = Buffer.from(this.queue);
        head[0] = action.patch(head[0] as number);
        this.queue = head;
        continue;
      }
      if (action.do === 'stall') {
        this.holding = true;
        setTimeout(() => {
          this.holding = false;
          this.flush();
        }, action.ms).unref();
        return;
      }
      return action.do === 'reset' ? this.kill() : this.endBoth();
    }
    if (this.upstreamEnded && !this.holding && this.queue.length === 0 && !this.dead) this.client.end();
  }

  private write(n: number): void {
    if (n <= 0) return;
    this.client.write(this.queue.subarray(0, n));
    this.queue = this.queue.subarray(n);
    this.sent += n;
  }

  /** Drops the server side; the client gets what was sent, then an orderly end (a FIN, not a reset). */
  private endBoth(): void {
    if (this.dead) return;
    this.dead = true;
    this.upstream.destroy();
    this.queue = Buffer.alloc(0);
    this.client.end();
    this.proxy.forget(this);
  }

  /** The bound fault's next step, in downstream offsets; undefined when it has nothing to do in these bytes. */
  private action(): Action | undefined {
    const bound = this.fault;
    if (!bound) return undefined;
    const f = bound.fault;
    switch (f.kind) {
      case 'cut':
        if (f.stream === 'request') return undefined;
        return { at: bound.down + f.offset, do: f.side === 'client' ? 'reset' : 'end' };
      case 'stall':
        return { at: bound.down + f.offset, do: 'stall', ms: f.ms };
      case 'truncate': {
        const unit = this.units.units.filter((u) => u.start >= bound.down)[f.frame];
        if (!unit) return undefined;
        if (unit.length === undefined) return { at: unit.start, do: 'wait' };
        return { at: unit.start + clamp(Math.floor(f.keep * unit.length), 1, unit.length - 1), do: 'end' };
      }
      case 'corrupt': {
        const unit = this.units.units.filter((u) => u.start >= bound.down)[f.frame];
        if (!unit) return undefined;
        if (unit.length === undefined) return { at: unit.start, do: 'wait' };
        return corruption({ ...unit, length: unit.length }, f.how, f.at);
      }
    }
  }
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** Where and how `unit` is corrupted; forms a receiver could not detect become the TLS drop. */
function corruption(unit: Unit & { length: number }, how: Corruption, at: number): Action {
  const payload = unit.length - unit.headerLength;
  if (how === 'header' && unit.kind === 'ws')
    // RSV1 set with no extension negotiated: the client must fail the connection (RFC 6455 §5.2).
    return { at: unit.start, do: 'patch', patch: (byte) => byte | 0x40 };
  if (how === 'header' && unit.kind === 'chunk')
    // A chunk size that is not hex: the HTTP parser must fail the response.
    return { at: unit.start, do: 'patch', patch: () => 0x7a };
  if (how === 'header' && unit.kind === 'head')
    // `HTTP/1.1` becomes `HTTP/z.1`: not an HTTP response at all.
    return { at: unit.start + 5, do: 'patch', patch: () => 0x7a };
  if (how === 'payload' && unit.kind === 'ws' && unit.opcode === 1 && payload > 0)
    // 0xFF never occurs in UTF-8, and a text frame must be UTF-8: the client must fail the connection (§8.1).
    return {
      at: unit.start + unit.headerLength + clamp(Math.floor(at * payload), 0, payload - 1),
      do: 'patch',
      patch: () => 0xff,
    };
  // Anything else (an SSE payload, a JSON body) would pass a flip on as data: over TLS it is a dropped link.
  return { at: unit.start + clamp(Math.floor(at * unit.length), 0, unit.length - 1), do: 'reset' };
}

/** The proxy: listens on 127.0.0.1, forwards every connection to `upstream`, and applies the armed fault. */
export class FaultProxy {
  /** Faults that took effect, by the label they were armed with (their kind by default). */
  readonly fired: Record<string, number> = {};
  private readonly links = new Set<Link>();
  private pending: Armed | undefined;
  private refusing = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Starts a proxy to `upstreamPort` on 127.0.0.1 (the upstream may come and go: a restarted server). */
  static async start(upstreamPort: number): Promise<FaultProxy> {
    const server = net.createServer({ noDelay: true });
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
    const proxy = new FaultProxy(server, port);
    server.on('connection', (client) => proxy.accept(client, upstreamPort));
    return proxy;
  }

  /** The base URL the agent uses: the server's, through the proxy. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /**
   * Arms `fault` for the next request (replacing one armed and not yet bound), counted under `label` when
   * it takes effect; `refuse` acts at once.
   */
  arm(fault: ProxyFault, label: string = fault.kind): void {
    if (fault.kind !== 'refuse') {
      this.pending = { fault, label };
      return;
    }
    this.refusing = fault.connections;
    for (const link of [...this.links]) link.kill();
    this.count(label);
  }

  /** The armed fault, taken by the connection whose client speaks first after it was armed. */
  take(): Armed | undefined {
    const armed = this.pending;
    this.pending = undefined;
    return armed;
  }

  count(label: string): void {
    this.fired[label] = (this.fired[label] ?? 0) + 1;
  }

  forget(link: Link): void {
    this.links.delete(link);
  }

  async close(): Promise<void> {
    for (const link of [...this.links]) link.kill();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, upstreamPort: number): void {
    client.setNoDelay(true);
    if (this.refusing > 0) {
      this.refusing--;
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect({ host: '127.0.0.1', port: upstreamPort, noDelay: true });
    this.links.add(new Link(client, upstream, this));
  }
}
