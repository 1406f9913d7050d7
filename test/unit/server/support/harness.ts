import * as path from 'node:path';
import WebSocket from 'ws';
import {
  type LoopwireServer,
  type StartOptions,
  type TurnRecord,
  loadScenarioFile,
  startServer,
} from '../../../../src/server';
import { repoRoot } from '../../support/runProcess';

/** The scenario file of the issue (`echo hi`: one tool call, then a message). */
export const ECHO_SCENARIO = path.join(repoRoot, 'test/fixtures/server/echo.json');

export interface Harness {
  server: LoopwireServer;
  url: string;
  /** Every response's figures so far, in completion order. */
  turns: TurnRecord[];
}

/** Starts an in-process server (fast by default: 20k tokens/s, no prefill) for each test of a suite. */
export function useServer(options: StartOptions | (() => StartOptions) = {}): Harness {
  const harness = { turns: [] as TurnRecord[] } as Harness;
  beforeEach(async () => {
    harness.turns.length = 0;
    const given = typeof options === 'function' ? options() : options;
    harness.server = await startServer({
      tps: 20_000,
      prefillUsPerToken: 0,
      scenarios: [loadScenarioFile(ECHO_SCENARIO)],
      ...given,
      observe: (record) => harness.turns.push(record),
    });
    harness.url = harness.server.url;
  });
  afterEach(async () => {
    await harness.server.close();
  });
  return harness;
}

export type WireEvent = Record<string, unknown> & { type: string };

/** A plain `ws` client that keeps every frame it receives, parsed, for tests to wait on. */
export class WsClient {
  readonly frames: (WireEvent | { type: '(unparsable)'; text: string })[] = [];
  /** The byte length of each frame in `frames`, as it came off the wire. */
  readonly sizes: number[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.sizes.push(data.length);
      try {
        this.frames.push(JSON.parse(text) as WireEvent);
      } catch {
        this.frames.push({ type: '(unparsable)', text });
      }
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    socket.on('error', () => this.wake());
  }

  /** Opens `ws://…/v1/responses` for a server's base URL. */
  static open(baseUrl: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/responses`, { headers, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  send(event: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(event));
  }

  /** Waits until `predicate` holds for the frames so far (or the socket closes), within `ms`. */
  async until(predicate: (frames: WsClient['frames']) => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this.frames)) {
      if (this.closeCode !== undefined) throw new Error(`socket closed (${this.closeCode}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames so far: ${this.frames.map((f) => f.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends one `response.create` and returns the frames of its answer, through its terminal or error event. */
  async turn(body: Record<string, unknown>): Promise<WireEvent[]> {
    const start = this.frames.length;
    this.send({ type: 'response.create', ...body });
    await this.until((frames) => frames.slice(start).some(isEnd));
    const frames = this.frames.slice(start) as WireEvent[];
    return frames.slice(0, frames.findIndex(isEnd) + 1);
  }

  /** Resolves with the close code once the server closes the socket. */
  async closed(ms = 10_000): Promise<number> {
    await this.until(() => false, ms).catch(() => undefined);
    if (this.closeCode === undefined) throw new Error('socket still open');
    return this.closeCode;
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

const END_TYPES = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

export function isEnd(frame: { type: string }): boolean {
  return END_TYPES.has(frame.type);
}

/** The terminal event's response of a turn's frames. */
export function finalResponse(frames: WireEvent[]): Record<string, unknown> & { id: string; output: unknown[] } {
  const last = frames.at(-1);
  if (!last || last.type === 'error') throw new Error(`turn ended with ${JSON.stringify(last)}`);
  return last.response as Record<string, unknown> & { id: string; output: unknown[] };
}

/** POSTs JSON to a server route; returns status, headers and body text. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A refused WebSocket upgrade: the plain HTTP answer the server gave instead of switching protocols. */
export function refusedUpgrade(
  baseUrl: string,
  headers: Record<string, string> = {},
  route = '/responses',
): Promise<{ status: number; body: unknown }> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${route}`, { headers, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        socket.terminate();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
      });
    });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('error', reject);
  });
}

/** One server-sent event block as it came: its `event:` name (if any) and its `data:` text, unparsed. */
export interface SseBlock {
  event: string | undefined;
  data: string;
  /** The block with its framing (`event: …\ndata: …\n\n`). */
  raw: string;
}

/** Splits an SSE body into its blocks; a cut-off last block is kept as it is. */
export function sseBlocks(text: string): SseBlock[] {
  return text
    .split(/(?<=\n\n)/)
    .filter((raw) => raw.trim() !== '')
    .map((raw) => {
      const lines = raw.split('\n');
      const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      return { event: field('event'), data: field('data') ?? '', raw };
    });
}

/**
 * POSTs JSON and reads the answer as far as it goes: a connection the server cuts mid-body gives the text
 * received so far and the error, instead of a rejection.
 */
export async function postUntilCut(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; cut: Error | undefined; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  let text = '';
  let cut: Error | undefined;
  const decoder = new TextDecoder();
  try {
    if (response.body)
      for await (const chunk of response.body as AsyncIterable<Uint8Array>)
        text += decoder.decode(chunk, { stream: true });
  } catch (error) {
    cut = error instanceof Error ? error : new Error(String(error));
  }
  return { status: response.status, headers: response.headers, text, cut, ms: performance.now() - started };
}

/** The URL of an admin route (`faults`, `stats`, …) of a server, from its base URL. */
export function adminUrl(baseUrl: string, route: string): string {
  return baseUrl.replace(/\/v1$/, `/admin/${route}`);
}
