import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { ROOT } from './codeServer';
import { until } from './until';

// Endpoints for the first-run walks (issue 41, item 7), on 127.0.0.1: a logging endpoint that records every
// request and WebSocket upgrade it is sent and refuses each with 401 (it proxies nothing), and the real
// `loopwire-server` with `--token-file`, the endpoint that needs a key.

/** One request or upgrade as the logging endpoint received it. */
export interface LoggedRequest {
  method: string;
  path: string;
  /** A WebSocket upgrade (`GET` with `Upgrade: websocket`), refused before any frame. */
  upgrade: boolean;
  authorization: string | undefined;
  apiKey: string | undefined;
  /** Every header, names in lower case (to look for a key under any name). */
  headers: Record<string, string>;
}

export interface LoggingEndpoint {
  /** Its base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** `127.0.0.1:PORT`. */
  host: string;
  /** What it has received so far, in order. */
  requests: LoggedRequest[];
  close(): Promise<void>;
}

/** The body of its refusal, shaped as the Responses API's. */
const REFUSAL = {
  error: {
    message: 'Incorrect API key provided (the logging endpoint refuses every request).',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};

function logged(request: http.IncomingMessage, upgrade: boolean): LoggedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: request.method ?? '',
    path: request.url ?? '',
    upgrade,
    authorization: headers['authorization'],
    apiKey: headers['api-key'],
    headers,
  };
}

/** A logging endpoint on a free port of 127.0.0.1: answers 401 to every request and every upgrade. */
export async function startLoggingEndpoint(): Promise<LoggingEndpoint> {
  const requests: LoggedRequest[] = [];
  const server = http.createServer((request, response) => {
    requests.push(logged(request, false));
    // The body is read (and dropped) so that a client posting a large one sees the answer, not a reset.
    request.resume();
    request.once('end', () => {
      response.writeHead(401, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify(REFUSAL));
    });
  });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex) => {
    requests.push(logged(request, true));
    const body = JSON.stringify(REFUSAL);
    socket.on('error', () => undefined);
    socket.end(
      `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TokenServer {
  /** Its base URL as its first stdout line gives it, `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** `127.0.0.1:PORT`. */
  host: string;
  token: string;
  /** The requests it served (its wire log's request lines: `POST /v1/responses` and `response.create`). */
  requests(): ServedRequest[];
  close(): Promise<void>;
}

/** A request line of loopwire-server's wire log (docs/backend.md, "Wire log"). */
export interface ServedRequest {
  transport: 'http' | 'ws';
  type: string;
  previous_response_id?: string | null;
}

/**
 * The built `loopwire-server` (dist/cli/loopwire-server.js) on a free port, needing `token` (given in a file in
 * `dir`, where its wire log goes too); its stderr goes to `logFile`.
 */
export async function startTokenServer(dir: string, token: string, logFile: string): Promise<TokenServer> {
  // A copy of the bin and the tokenizer's ranks it reads beside it on first use: a `npm run bundle` while the
  // suite runs empties dist/ and must not take the server's files from under it.
  const built = path.join(ROOT, 'dist', 'cli');
  const copy = path.join(dir, 'bin');
  fs.mkdirSync(copy, { recursive: true });
  for (const file of ['loopwire-server.js', 'o200k_base.json']) {
    if (!fs.existsSync(path.join(built, file)))
      throw new Error(`The first-run walks need dist/cli/${file} (run \`npm run bundle\`)`);
    fs.copyFileSync(path.join(built, file), path.join(copy, file));
  }
  const bin = path.join(copy, 'loopwire-server.js');
  const tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const log = fs.createWriteStream(logFile);
  const wire = path.join(dir, 'wire.jsonl');
  const child: ChildProcess = spawn(process.execPath, [bin, '--token-file', tokenFile, '--port', '0', '--log', wire], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const requests = () =>
    (fs.existsSync(wire) ? fs.readFileSync(wire, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as ServedRequest & { dir?: string })
      .filter((line) => line.dir === 'in' && 'previous_response_id' in line);
  child.stderr?.pipe(log);
  let stdout = '';
  let exited: string | undefined;
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.once('exit', (code, signal) => (exited = `loopwire-server exited (${code ?? signal})`));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    const url = await until(
      'loopwire-server’s first line (its URL)',
      () => {
        if (exited) throw new Error(exited);
        const line = stdout.split('\n').length > 1 ? stdout.split('\n')[0] : undefined;
        return line?.trim();
      },
      15_000,
      50,
    );
    return { url, host: new URL(url).host, token, requests, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
