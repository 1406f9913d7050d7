import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import { type NetemOptions, type NetemProxy, startNetemProxy } from '../../bench/loop/netemProxy';
import { NetworkFlagError, networkProfiles } from '../../bench/loop/networkProfile';

// The bench's network proxy over real sockets on 127.0.0.1: it delays by the round trip, paces each
// direction at its rate, passes every byte intact and in order, and closes one side when the other closes.
// Bounds are generous (lower bounds are the physics; upper bounds only catch a proxy that stalls).

const UNLIMITED = Infinity;
const MB = 1024 * 1024;

interface Upstream {
  port: number;
  /** Sockets the proxy opened to it, as they came. */
  accepted: net.Socket[];
  close(): Promise<void>;
}

/** `allowHalfOpen: false` is how servers and clients meet a FIN: they end their side too. */
async function listen(onSocket: (socket: net.Socket) => void, allowHalfOpen: boolean): Promise<Upstream> {
  const accepted: net.Socket[] = [];
  const server = net.createServer({ allowHalfOpen }, (socket) => {
    accepted.push(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of accepted) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function connect(port: number, allowHalfOpen: boolean): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Reads `bytes` bytes from `socket`; resolves with them and the time the last arrived. */
function readBytes(socket: net.Socket, bytes: number): Promise<{ data: Buffer; at: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      got += chunk.length;
      if (got >= bytes) {
        socket.off('data', onData);
        resolve({ data: Buffer.concat(chunks), at: performance.now() });
      }
    };
    socket.on('data', onData);
    socket.once('close', () => got < bytes && reject(new Error(`closed after ${got} of ${bytes} bytes`)));
  });
}

const closed = (socket: net.Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('bench network proxy (netemProxy)', () => {
  let upstream: Upstream | undefined;
  let proxy: NetemProxy | undefined;
  const clients: net.Socket[] = [];

  afterEach(async () => {
    for (const socket of clients.splice(0)) socket.destroy();
    await proxy?.close();
    await upstream?.close();
    proxy = upstream = undefined;
  });

  async function start(
    options: NetemOptions,
    onSocket: (socket: net.Socket) => void,
    allowHalfOpen = true,
  ): Promise<number> {
    upstream = await listen(onSocket, allowHalfOpen);
    proxy = await startNetemProxy({ host: '127.0.0.1', port: upstream.port }, options);
    return proxy.port;
  }

  async function client(port: number, allowHalfOpen = true): Promise<net.Socket> {
    const socket = await connect(port, allowHalfOpen);
    clients.push(socket);
    return socket;
  }

  const echo = (socket: net.Socket) => socket.pipe(socket);

  it('adds the round trip to an exchange, and one more for a new connection (the handshake)', async () => {
    const rttMs = 60;
    const port = await start({ rttMs, uplinkBitsPerSecond: UNLIMITED, downlinkBitsPerSecond: UNLIMITED }, echo);
    const opened = performance.now();
    const socket = await client(port);
    socket.write('first');
    const first = await readBytes(socket, 5);
    assert.ok(first.at - opened >= 2 * rttMs - 2, `a new connection's first echo took ${first.at - opened} ms`);
    for (let i = 0; i < 3; i++) {
      const sent = performance.now();
      socket.write(`again ${i}`);
      const back = await readBytes(socket, 7);
      const took = back.at - sent;
      assert.ok(took >= rttMs - 2 && took < rttMs + 500, `a round trip took ${took} ms (rtt ${rttMs} ms)`);
    }
  });

  it('paces the uplink at its rate and passes 1 MB intact and in order', async () => {
    const received: Promise<{ data: Buffer; at: number }>[] = [];
    const port = await start({ rttMs: 0, uplinkBitsPerSecond: 20e6, downlinkBitsPerSecond: UNLIMITED }, (socket) =>
      received.push(readBytes(socket, MB)),
    );
    const payload = randomBytes(MB);
    const socket = await client(port);
    const sent = performance.now();
    // Small writes and big ones, as a client makes them.
    for (let offset = 0; offset < MB;) {
      const size = Math.min(MB - offset, offset % 3 === 0 ? 100_000 : 777);
      socket.write(payload.subarray(offset, offset + size));
      offset += size;
    }
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const got = await received[0];
    assert.ok(got, 'the upstream saw a connection');
    assert.ok(got.data.equals(payload), 'the bytes arrived intact and in order');
    const seconds = (got.at - sent) / 1000;
    assert.ok(seconds >= (MB * 8) / 20e6 - 0.005, `1 MB at 20 Mbit/s arrived in ${seconds.toFixed(3)} s`);
    assert.ok(seconds < 5, `1 MB took ${seconds.toFixed(3)} s`);
    assert.equal(proxy?.counters().bytesUp, MB);
  });

  it('paces the downlink at its own rate and passes 1 MB intact and in order', async () => {
    const payload = randomBytes(MB);
    const port = await start({ rttMs: 10, uplinkBitsPerSecond: UNLIMITED, downlinkBitsPerSecond: 20e6 }, (socket) =>
      socket.once('data', () => socket.write(payload)),
    );
    const socket = await client(port);
    const asked = performance.now();
    socket.write('go');
    const got = await readBytes(socket, MB);
    assert.ok(got.data.equals(payload), 'the bytes arrived intact and in order');
    const seconds = (got.at - asked) / 1000;
    assert.ok(seconds >= (MB * 8) / 20e6 + 0.02 - 0.005, `1 MB at 20 Mbit/s arrived in ${seconds.toFixed(3)} s`);
    assert.ok(seconds < 5, `1 MB took ${seconds.toFixed(3)} s`);
    assert.equal(proxy?.counters().bytesDown, MB);
  });

  it('shares one uplink between connections, as a user has one line', async () => {
    const received: Promise<{ data: Buffer; at: number }>[] = [];
    const half = MB / 2;
    const port = await start({ rttMs: 0, uplinkBitsPerSecond: 20e6, downlinkBitsPerSecond: UNLIMITED }, (socket) =>
      received.push(readBytes(socket, half)),
    );
    const [a, b] = [randomBytes(half), randomBytes(half)];
    const [first, second] = await Promise.all([client(port), client(port)]);
    const sent = performance.now();
    first.write(a);
    second.write(b);
    while (received.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const got = await Promise.all(received);
    const last = Math.max(...got.map((g) => g.at));
    assert.deepEqual(new Set(got.map((g) => g.data.toString('hex'))), new Set([a, b].map((x) => x.toString('hex'))));
    assert.ok((last - sent) / 1000 >= (MB * 8) / 20e6 - 0.005, `two halves took ${(last - sent) / 1000} s`);
    assert.equal(proxy?.counters().connections, 2);
  });

  it('ends the server side when the client ends, after the bytes before it', async () => {
    const port = await start({ rttMs: 20, uplinkBitsPerSecond: UNLIMITED, downlinkBitsPerSecond: UNLIMITED }, () => {});
    const socket = await client(port);
    socket.end('last words');
    while (!upstream?.accepted[0]) await new Promise((resolve) => setTimeout(resolve, 5));
    const server = upstream.accepted[0];
    const chunks: Buffer[] = [];
    server.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise<void>((resolve) => server.once('end', () => resolve()));
    assert.equal(Buffer.concat(chunks).toString(), 'last words');
    server.end();
    await closed(socket);
  });

  it('closes the client when the server goes away', async () => {
    const port = await start({ rttMs: 20, uplinkBitsPerSecond: UNLIMITED, downlinkBitsPerSecond: UNLIMITED }, (s) =>
      s.once('data', () => s.destroy()),
    );
    const socket = await client(port, false);
    socket.write('hello');
    await closed(socket);
    assert.ok(socket.destroyed);
  });

  it('closes the server side when the client is destroyed', async () => {
    const port = await start(
      { rttMs: 20, uplinkBitsPerSecond: UNLIMITED, downlinkBitsPerSecond: UNLIMITED },
      // A socket nobody reads never sees the FIN behind its data.
      (s) => s.resume(),
      false,
    );
    const socket = await client(port);
    socket.write('x');
    while (!upstream?.accepted[0]) await new Promise((resolve) => setTimeout(resolve, 5));
    const server = upstream.accepted[0];
    socket.destroy();
    await closed(server);
  });
});

describe('bench network profiles (--network)', () => {
  it('keeps the bench on loopback unless asked, and shapes wan with the defaults or the flags', () => {
    assert.deepEqual(
      networkProfiles({}).map((p) => p.name),
      ['loopback'],
    );
    assert.deepEqual(networkProfiles({ network: 'wan' }), [
      { name: 'wan', rtt_ms: 40, uplink_mbit: 20, downlink_mbit: 100 },
    ]);
    const both = networkProfiles({ network: 'both', 'rtt-ms': '80', 'uplink-mbit': '5' });
    assert.deepEqual(
      both.map((p) => [p.name, p.rtt_ms, p.uplink_mbit]),
      [
        ['loopback', 0, null],
        ['wan', 80, 5],
      ],
    );
  });

  it('refuses a flag it cannot use, naming it', () => {
    assert.throws(() => networkProfiles({ network: 'lan' }), /--network lan: give loopback, wan or both/);
    assert.throws(() => networkProfiles({ 'rtt-ms': '10' }), /--rtt-ms shapes the wan profile/);
    assert.throws(
      () => networkProfiles({ network: 'wan', 'uplink-mbit': '0' }),
      (error: unknown) => error instanceof NetworkFlagError && error.code === 'invalid_network_flag',
    );
  });
});
