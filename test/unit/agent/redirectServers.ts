import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type LoopwireServer, startServer } from '../../../src/server';

// The servers of the redirect tests, all on 127.0.0.1: the real bundled server; a front on its own port that
// answers every `/old/…` request with a redirect and passes `/v1/…` on to the real server (so a redirect it
// makes to itself, same origin, ends at a real answer); and another origin (another port) that only counts
// what reaches it, which must stay nothing.

/** Where the front's redirects point: another origin, its own `/v1/…` (same origin), or itself again. */
export type RedirectTarget = 'other' | 'same' | 'loop';

export interface RedirectServers {
  real: LoopwireServer;
  /** The front's origin (`http://127.0.0.1:PORT`). */
  front: string;
  /** The other origin's. */
  other: string;
  /** What the front is to answer `/old/…` with. */
  mode: { status: number; to: RedirectTarget };
  /** The front's requests (`METHOD path`) and upgrades (`UPGRADE path`), in order. */
  frontSeen: string[];
  /** Connections the other origin accepted, and the requests it read (with their headers). */
  otherSeen: { connections: number; requests: Array<{ line: string; headers: http.IncomingHttpHeaders }> };
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Where `/old/rest` is sent in `mode`. */
function locationFor(servers: RedirectServers, path: string, scheme: 'http' | 'ws'): string {
  const rest = path.replace(/^\/old\//, '');
  if (servers.mode.to === 'loop') return path;
  // Relative for the same origin: resolved against the request's URL, as a server usually writes it.
  if (servers.mode.to === 'same') return `/v1/${rest}`;
  return `${servers.other.replace(/^http/, scheme)}/v1/${rest}`;
}

/** Passes a request to the real server and its answer back. */
function forward(real: LoopwireServer, req: http.IncomingMessage, res: http.ServerResponse): void {
  const upstream = http.request(
    { host: '127.0.0.1', port: real.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

export async function startRedirectServers(token: string): Promise<RedirectServers> {
  const servers = {
    real: await startServer({ token }),
    mode: { status: 307, to: 'other' },
    frontSeen: [],
    otherSeen: { connections: 0, requests: [] },
  } as unknown as RedirectServers;
  const other = http.createServer((req, res) => {
    servers.otherSeen.requests.push({ line: `${req.method} ${req.url}`, headers: req.headers });
    res.end('{}');
  });
  other.on('connection', () => servers.otherSeen.connections++);
  other.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    servers.otherSeen.requests.push({ line: `UPGRADE ${req.url}`, headers: req.headers });
    socket.destroy();
  });
  const front = http.createServer((req, res) => {
    const path = req.url ?? '/';
    servers.frontSeen.push(`${req.method} ${path}`);
    if (!path.startsWith('/old/')) return forward(servers.real, req, res);
    // The body is read first, as a server does before it answers, so the client is never cut off mid-send.
    req.resume();
    req.on('end', () => {
      res.writeHead(servers.mode.status, { location: locationFor(servers, path, 'http') });
      res.end('moved');
    });
  });
  front.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    const path = req.url ?? '/';
    servers.frontSeen.push(`UPGRADE ${path}`);
    const location = locationFor(servers, path, 'ws');
    socket.end(`HTTP/1.1 ${servers.mode.status} Moved\r\nLocation: ${location}\r\nContent-Length: 0\r\n\r\n`);
  });
  servers.front = await listen(front);
  servers.other = await listen(other);
  servers.close = async () => {
    for (const server of [front, other]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await servers.real.close();
  };
  return servers;
}
