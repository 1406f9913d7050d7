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
import { type ServerOptions, resolveOptions } from './serverOptions';
import { StateBudget } from './stateBudget';
import { type TurnRecord, TurnService } from './turnService';
import { WireLog } from './wireLog';
import { WsConnection } from './wsConnection';

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
  const budget = new StateBudget(resolved.limits.stateBytes);
  const store = await ResponseStore.open(resolved.storeDir, resolved.limits.storedResponses, budget, resolved.log);
  const faults = new FaultQueue();
  const model = new ScriptedModel(resolved.scenarios, resolved.scenarioHint);
  const promptCache = new PromptCache(resolved.limits.promptCacheEntries);
  let turns = 0;
  const work = { parseMs: 0, loadMs: 0, workMs: 0, prefillMs: 0, inputTokens: 0, cachedTokens: 0, outputTokens: 0 };
  const observe = options.observe;
  const service = new TurnService(
    {
      model,
      promptCache,
      tps: resolved.tps,
      prefillUsPerToken: resolved.prefillUsPerToken,
      contextWindow: resolved.contextWindow,
    },
    store,
    faults,
    (record) => {
      turns++;
      work.parseMs += record.parseMs;
      work.loadMs += record.loadMs;
      work.workMs += record.workMs;
      work.prefillMs += record.prefillMs;
      work.inputTokens += record.inputTokens;
      work.cachedTokens += record.cachedTokens;
      work.outputTokens += record.outputTokens;
      observe?.(record);
    },
  );
  const wireLog = new WireLog(
    resolved.logFile,
    (error) => resolved.log(`wire log: ${error.message}`),
    resolved.logBodies,
    resolved.bodyLogFile,
  );
  const connections = new Set<WsConnection>();
  const stats = (): ServerStats => ({
    connections: connections.size,
    cachedResponses: [...connections].reduce((sum, connection) => sum + connection.cache.size, 0),
    storedResponses: store.size,
    stateBytes: budget.bytes,
    promptCacheEntries: promptCache.size,
    turns,
    work: { ...work },
  });
  const dropConnections = (): number => {
    const count = connections.size;
    for (const connection of connections) connection.terminate();
    return count;
  };
  const admin = new AdminApi(faults, stats, dropConnections, { wireLog, token: resolved.token });

  let nextConnection = 0;
  const httpIds = new WeakMap<Socket, string>();
  const httpContext: HttpContext = {
    options: resolved,
    service,
    store,
    wireLog,
    admin,
    connectionId: (socket) => {
      let id = httpIds.get(socket);
      if (id === undefined) httpIds.set(socket, (id = `h${++nextConnection}`));
      return id;
    },
  };

  const server = http.createServer((req, res) => {
    handleHttp(httpContext, req, res).catch((error: unknown) => {
      resolved.log(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(httpContext, httpContext.connectionId(req.socket), res, refusals.internal());
      else res.destroy();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: resolved.limits.maxBodyBytes,
    perMessageDeflate: false,
  });
  server.on('upgrade', (req, socket: Socket, head) => {
    socket.on('error', () => socket.destroy());
    const { pathname } = new URL(req.url ?? '/', 'http://loopwire.invalid');
    const refused: Refusal | undefined =
      pathname === '/v1/responses'
        ? guardRequest(req, resolved.token)
        : refusals.notFound(`No WebSocket route for ${pathname}.`);
    if (refused) {
      wireLog.record({
        conn: `u${++nextConnection}`,
        transport: 'ws',
        dir: 'in',
        type: 'upgrade',
        bytes: 0,
        status: refused.status,
      });
      return refuseUpgrade(socket, refused);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new WsConnection(`w${++nextConnection}`, ws, { options: resolved, service, wireLog, budget });
      connections.add(connection);
      void connection.closed.then(() => connections.delete(connection));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/v1`;
  resolved.log(
    `loopwire-server listening on ${url} (${model.scenarioCount} scenario(s), ${resolved.tps} tokens/s, ` +
      `a ${resolved.contextWindow}-token context window, ` +
      `${resolved.storeDir ? `store in ${resolved.storeDir}` : 'store in memory'}${resolved.token ? ', token required' : ''})`,
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    stats,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // The cut sockets' `close` lines are written when their close events arrive: wait for those first.
        const cut = Promise.all([...connections].map((connection) => connection.closed));
        dropConnections();
        server.closeAllConnections();
        wss.close();
        await Promise.all([closed, cut]);
        await wireLog.close();
      })()),
  };
}

/** Answers a refused upgrade as plain HTTP with the API's error body, then hangs up. */
function refuseUpgrade(socket: Socket, refused: Refusal): void {
  const body = JSON.stringify({ error: refused.error });
  const reason = http.STATUS_CODES[refused.status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${refused.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
