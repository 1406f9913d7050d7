import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A real HTTP proxy on 127.0.0.1 for the proxy suites: TooTallNate's `proxy` package (the one the
// proxy-agents packages test against), which forwards plain requests and tunnels CONNECT to the host asked
// for. The suite only looks on: every CONNECT's target is kept, in order, and the proxy does the rest.

export interface RealProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The `host:port` of each CONNECT the proxy received, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export interface RealProxyOptions {
  /** Decides each request's `Proxy-Authorization`; false answers 407 (no function: every request passes). */
  authenticate?: (header: string | undefined) => boolean;
}

/** Starts a proxy on an ephemeral port of 127.0.0.1. */
export async function startRealProxy(options: RealProxyOptions = {}): Promise<RealProxy> {
  // The package is ESM only: loaded with import(), which CommonJS (this suite under tsx) can always do.
  const { createProxy } = await import('proxy');
  const server = createProxy(http.createServer());
  const { authenticate } = options;
  if (authenticate) server.authenticate = (request) => authenticate(request.headers['proxy-authorization']);
  const tunnels: string[] = [];
  server.on('connect', (request: http.IncomingMessage) => tunnels.push(request.url ?? ''));
  // Tunnels outlive their requests: closing the proxy ends them too, so no socket keeps the suite alive.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening: a server's, closed again. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
