import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { AdminApi, type ServerStats } from './adminApi';
import { type Refusal, refusals } from './apiErrors';
import { FaultQueue } from './faults';
import { handleHttp } from './httpApi';
import type { HttpContext } from './httpContext';
import { sendError } from './httpReplies';
import { PromptCache } from './promptCache';
import { guardRequest } from './requestGuard';
import { ResponseStore } from './responseStore';
import { ScriptedModel } from './scriptedModel';
import { type ResolvedOptions, type ServerOptions, resolveOptions } from './serverOptions';
import { StateBudget } from './stateBudget';
import { type TurnRecord, TurnService } from './turnService';
import { WireLog } from './wireLog';
import { type WsContext, WsConnection } from './wsConnection';

/** A running loopwire-server. */
export interface LoopwireServer {
  /** The base URL clients are given: `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly port: number;
  stats(): ServerStats;
  /** Stops listening, cuts every connection and flushes the wire log. */
  close(): Promise<void>;
}

export interface StartOptions extends ServerOptions {
  /** Called after every response with its figures (tests, the benchmark). */
  observe?: (record: TurnRecord) => void;
}

/** Starts the server: HTTP+SSE and WebSocket mode on one port. */
export async function startServer(options: StartOptions = {}): Promise<LoopwireServer> {
  const resolved = resolveOptions(options);
  const { budget, store, faults, model, promptCache, tally, service, wireLog } = await serverParts(
    resolved,
    options.observe,
  );
  const connections = new Set<WsConnection>();
  const stats = (): ServerStats => ({
    connections: connections.size,
    cachedResponses: [...connections].reduce((sum, connection) => sum + connection.cache.size, 0),
    storedResponses: store.size,
    stateBytes: budget.bytes,
    promptCacheEntries: promptCache.size,
    ...tally.figures(),
  });
  const dropConnections = (): number => {
    const count = connections.size;
    for (const connection of connections) connection.terminate();
    return count;
  };
  const admin = new AdminApi(faults, stats, dropConnections, { wireLog, token: resolved.token });
  const nextConnection = counter();
  const httpContext: HttpContext = {
    options: resolved,
    service,
    store,
    wireLog,
    admin,
    connectionId: httpConnectionIds(nextConnection),
  };
  const server = httpServer(httpContext);
  const wss = acceptUpgrades(server, { options: resolved, service, wireLog, budget }, { connections, nextConnection });
  const address = await listen(server, resolved.port, resolved.host);
  const url = urlOf(address);
  resolved.log(listeningLine(url, resolved, model.scenarioCount));
  const close = closer({ server, wss, connections, dropConnections, wireLog });
  return { url, port: address.port, stats, close };
}

/** What the server keeps and answers with, before it takes a connection. */
async function serverParts(resolved: ResolvedOptions, observe: StartOptions['observe']) {
  const budget = new StateBudget(resolved.limits.stateBytes);
  const store = await ResponseStore.open(resolved.storeDir, resolved.limits.storedResponses, budget, resolved.log);
  const faults = new FaultQueue();
  const model = new ScriptedModel(resolved.scenarios, resolved.scenarioHint);
  const promptCache = new PromptCache(resolved.limits.promptCacheEntries);
  const tally = new WorkTally(observe);
  const { tps, prefillUsPerToken, contextWindow } = resolved;
  const engine = { model, promptCache, tps, prefillUsPerToken, contextWindow };
  const service = new TurnService(engine, store, faults, (record) => tally.add(record));
  const wireLog = new WireLog(
    resolved.logFile,
    (error) => resolved.log(`wire log: ${error.message}`),
    resolved.logBodies,
    resolved.bodyLogFile,
  );
  return { budget, store, faults, model, promptCache, tally, service, wireLog };
}

/** The line the server logs once it listens: where, and how it answers. */
function listeningLine(url: string, resolved: ResolvedOptions, scenarios: number): string {
  return (
    `loopwire-server listening on ${url} (${scenarios} scenario(s), ${resolved.tps} tokens/s, ` +
    `a ${resolved.contextWindow}-token context window, ` +
    `${resolved.storeDir ? `store in ${resolved.storeDir}` : 'store in memory'}${resolved.token ? ', token required' : ''})`
  );
}

/** The responses run so far and what they cost, summed as each is recorded; each is also passed on to `observe`. */
class WorkTally {
  private turns = 0;
  private readonly work: ServerStats['work'] = {
    parseMs: 0,
    loadMs: 0,
    workMs: 0,
    prefillMs: 0,
    inputTokens: 0,
    cachedTokens: 0,
    outputTokens: 0,
  };

  constructor(private readonly observe: ((record: TurnRecord) => void) | undefined) {}

  add(record: TurnRecord): void {
    const { work } = this;
    this.turns++;
    work.parseMs += record.parseMs;
    work.loadMs += record.loadMs;
    work.workMs += record.workMs;
    work.prefillMs += record.prefillMs;
    work.inputTokens += record.inputTokens;
    work.cachedTokens += record.cachedTokens;
    work.outputTokens += record.outputTokens;
    this.observe?.(record);
  }

  figures(): Pick<ServerStats, 'turns' | 'work'> {
    return { turns: this.turns, work: { ...this.work } };
  }
}

/** Numbers connections from 1, HTTP and WebSocket alike (`h3`, `w4`, `u5` in the wire log). */
function counter(): () => number {
  let count = 0;
  return () => ++count;
}

/** An HTTP connection's id, given when its socket is first seen (keep-alive requests share it). */
function httpConnectionIds(next: () => number): (socket: Socket) => string {
  const ids = new WeakMap<Socket, string>();
  return (socket) => {
    let id = ids.get(socket);
    if (id === undefined) ids.set(socket, (id = `h${next()}`));
    return id;
  };
}

/** The HTTP API's server; an error escaping a handler answers 500 if it still can, else cuts the socket. */
function httpServer(context: HttpContext): http.Server {
  const server = http.createServer((req, res) => {
    handleHttp(context, req, res).catch((error: unknown) => {
      context.options.log(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(context, context.connectionId(req.socket), res, refusals.internal());
      else res.destroy();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  return server;
}

/** Where WebSocket connections are kept, and the ids they are numbered with. */
interface Sockets {
  connections: Set<WsConnection>;
  nextConnection: () => number;
}

/** Takes WebSocket upgrades to `/v1/responses` on `server` (with the token, if any); refuses the rest as the API does. */
function acceptUpgrades(server: http.Server, deps: WsContext, sockets: Sockets): WebSocketServer {
  const { options, wireLog } = deps;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.limits.maxBodyBytes,
    perMessageDeflate: false,
  });
  server.on('upgrade', (req, socket: Socket, head) => {
    socket.on('error', () => socket.destroy());
    const { pathname } = new URL(req.url ?? '/', 'http://loopwire.invalid');
    const refused: Refusal | undefined =
      pathname === '/v1/responses'
        ? guardRequest(req, options.token)
        : refusals.notFound(`No WebSocket route for ${pathname}.`);
    if (refused) {
      const conn = `u${sockets.nextConnection()}`;
      wireLog.record({ conn, transport: 'ws', dir: 'in', type: 'upgrade', bytes: 0, status: refused.status });
      return refuseUpgrade(socket, refused);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new WsConnection(`w${sockets.nextConnection()}`, ws, deps);
      sockets.connections.add(connection);
      void connection.closed.then(() => sockets.connections.delete(connection));
    });
  });
  return wss;
}

/** Listens on `port` and `host`; rejects when it cannot (the port taken). */
async function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

/** The base URL clients are given: `http://127.0.0.1:PORT/v1` (an IPv6 host in brackets). */
function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}/v1`;
}

/** What closing the server stops. */
interface Running {
  server: http.Server;
  wss: WebSocketServer;
  connections: Set<WsConnection>;
  dropConnections: () => number;
  wireLog: WireLog;
}

/** The server's `close`: once, however often called — stops listening, cuts every connection, flushes the log. */
function closer({ server, wss, connections, dropConnections, wireLog }: Running): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The cut sockets' `close` lines are written when their close events arrive: wait for those first.
      const cut = Promise.all([...connections].map((connection) => connection.closed));
      dropConnections();
      server.closeAllConnections();
      wss.close();
      await Promise.all([closed, cut]);
      await wireLog.close();
    })());
}

/** Answers a refused upgrade as plain HTTP with the API's error body, then hangs up. */
function refuseUpgrade(socket: Socket, refused: Refusal): void {
  const body = JSON.stringify({ error: refused.error });
  const reason = http.STATUS_CODES[refused.status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${refused.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
