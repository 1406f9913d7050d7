import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { HttpErrorBody, WsErrorEvent } from '../../src/protocol';
import { type ScenarioFile, startServer } from '../../src/server';
import { seeded } from './seeded';

// Hostile input for the bundled server, seeded: mutated valid requests (fields dropped, retyped, doubled,
// huge), deeply nested and malformed JSON, invalid UTF-8, random bytes, binary frames, unknown event types,
// made-up previous_response_ids — over HTTP and over WebSocket. Every answer must be in the API's error
// shapes (or a normal response, when a mutation happens to be valid); the server must stay up; and a
// healthy session opened first must keep completing turns throughout.
// Usage: npx tsx test/reliability/serverFuzz.ts [--cases 10000] [--seed N]

export interface FuzzReport {
  seed: number;
  cases: number;
  http: number;
  ws: number;
  /** Answers by kind: an error body or event, a response, a close by the server. */
  answers: Record<string, number>;
  healthyTurns: number;
  /** Anything not in the API's shapes, an exception, or a healthy turn that failed. */
  problems: string[];
}

const TOKEN = 'fuzz-token';
const SCENARIO: ScenarioFile = {
  scenarios: [{ name: 'any', match: '[\\s\\S]*', steps: [{ output: [{ type: 'message', text: 'ok' }] }] }],
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const VALID: { [key: string]: Json } = {
  model: 'gpt-5.5',
  store: false,
  input: [{ type: 'message', role: 'user', content: 'hello' }],
  instructions: 'Be brief.',
  tools: [{ type: 'function', name: 'read_file', parameters: { type: 'object', properties: {} } }],
};

/** One hostile body: text (maybe not JSON), or bytes. */
function mutate(next: () => number): string | Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const values: Json[] = [null, true, 0, -1, 1e308, '', 'x'.repeat(1 + Math.floor(next() * 5000)), [], {}, [[[]]]];
  const body: { [key: string]: Json } = structuredClone(VALID);
  switch (Math.floor(next() * 12)) {
    case 0: {
      const key = pick(Object.keys(body));
      delete body[key];
      return JSON.stringify(body);
    }
    case 1:
      body[pick(Object.keys(body))] = pick(values);
      return JSON.stringify(body);
    case 2:
      body.input = [
        { type: pick(['message', 'function_call_output', 'nope', '']), role: pick(values), content: pick(values) },
      ];
      return JSON.stringify(body);
    case 3:
      body.previous_response_id = pick(['resp_missing', '', 'x'.repeat(300), '../../etc', 'resp_\u0000']);
      return JSON.stringify(body);
    case 4:
      return '['.repeat(1000 + Math.floor(next() * 100_000));
    case 5:
      return `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    case 6:
      return JSON.stringify(body).slice(0, Math.floor(next() * 120));
    case 7:
      return Buffer.from(Array.from({ length: 1 + Math.floor(next() * 400) }, () => Math.floor(next() * 256)));
    case 8:
      return Buffer.concat([Buffer.from('{"model":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]);
    case 9:
      body.input = [{ type: 'message', role: 'user', content: 'y'.repeat(200_000 + Math.floor(next() * 800_000)) }];
      return JSON.stringify(body);
    case 10:
      return JSON.stringify(pick([null, 42, 'text', [body], { nested: body }]));
    default:
      body[`extra_${Math.floor(next() * 100)}`] = pick(values);
      body.tools = pick([[], [{}], [{ type: 'function' }], 'tools', [{ type: 'custom', name: 'x', format: 7 }]]);
      return JSON.stringify(body);
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function httpCase(url: string, body: string | Buffer, report: FuzzReport): Promise<void> {
  const response = await fetch(`${url}/responses`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body,
  });
  const text = await response.text();
  if (response.ok) {
    report.answers['http 200'] = (report.answers['http 200'] ?? 0) + 1;
    return;
  }
  const parsed = HttpErrorBody.safeParse(parse(text));
  const key = `http ${response.status}`;
  report.answers[key] = (report.answers[key] ?? 0) + 1;
  if (!parsed.success || response.status < 400 || response.status >= 600)
    report.problems.push(`HTTP ${response.status} not in the error shape: ${text.slice(0, 160)}`);
}

/** A socket for fuzz frames; replaced when the server closes it (as it may, for a binary frame). */
class FuzzSocket {
  private socket: WebSocket | undefined;
  private waiting: ((answer: string) => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly report: FuzzReport,
  ) {}

  private async open(): Promise<WebSocket> {
    if (this.socket?.readyState === WebSocket.OPEN) return this.socket;
    const socket = new WebSocket(`${this.url.replace(/^http/, 'ws')}/responses`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const frame = parse(text) as { type?: string } | undefined;
      if (frame?.type === 'error') {
        if (!WsErrorEvent.safeParse(frame).success)
          this.report.problems.push(`an error event not in the shape: ${text.slice(0, 160)}`);
        this.settle('ws error');
      } else if (frame?.type === 'response.completed' || frame?.type === 'response.failed')
        this.settle(`ws ${frame.type}`);
      else if (frame === undefined) this.report.problems.push(`a frame that is not JSON: ${text.slice(0, 80)}`);
    });
    socket.on('close', (code) => this.settle(`ws close ${code}`));
    socket.on('error', () => undefined);
    this.socket = socket;
    return socket;
  }

  private settle(answer: string): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(answer);
  }

  async send(body: string | Buffer, binary: boolean): Promise<void> {
    const socket = await this.open();
    const answer = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('no answer'), 5_000);
      this.waiting = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      const text = typeof body === 'string' ? body : body;
      // A frame is a response.create with the hostile body as its fields, or the hostile bytes themselves.
      if (!binary && typeof text === 'string' && text.startsWith('{') && parse(text) !== undefined)
        socket.send(`{"type":"response.create",${text.slice(1)}`);
      else socket.send(text, { binary });
    });
    this.report.answers[answer] = (this.report.answers[answer] ?? 0) + 1;
    if (answer === 'no answer') this.report.problems.push(`a frame got no answer in 5 s: ${String(body).slice(0, 80)}`);
    if (answer === 'ws close 1006') this.report.problems.push('the server dropped a socket without a close frame');
  }

  close(): void {
    this.socket?.close();
  }
}

/** The bystander: one chained turn on its own socket, which must complete whatever the others send. */
async function healthyTurn(socket: WebSocket, previous: string | undefined): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { type?: string; response?: { id?: string } };
      if (frame.type === 'response.completed') {
        socket.off('message', onMessage);
        resolve(frame.response?.id ?? '');
      } else if (frame.type === 'error' || frame.type === 'response.failed') {
        socket.off('message', onMessage);
        reject(new Error(`the healthy session failed: ${data.toString('utf8').slice(0, 200)}`));
      }
    };
    socket.on('message', onMessage);
    socket.send(
      JSON.stringify({
        type: 'response.create',
        model: 'gpt-5.5',
        store: false,
        input: [{ type: 'message', role: 'user', content: 'still there?' }],
        ...(previous ? { previous_response_id: previous } : {}),
      }),
    );
  });
}

export async function runServerFuzz(cases: number, seed: number): Promise<FuzzReport> {
  const server = await startServer({ token: TOKEN, tps: 100_000, prefillUsPerToken: 0, scenarios: [SCENARIO] });
  const report: FuzzReport = { seed, cases, http: 0, ws: 0, answers: {}, healthyTurns: 0, problems: [] };
  const crash = (error: unknown) => report.problems.push(`uncaught: ${String(error)}`);
  process.on('uncaughtException', crash);
  const healthy = new WebSocket(`${server.url.replace(/^http/, 'ws')}/responses`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  await new Promise((resolve) => healthy.once('open', resolve));
  const fuzz = new FuzzSocket(server.url, report);
  const next = seeded(seed);
  let previous: string | undefined;
  try {
    for (let i = 0; i < cases; i++) {
      const body = mutate(next);
      if (next() < 0.5) {
        report.http++;
        await httpCase(server.url, body, report);
      } else {
        report.ws++;
        await fuzz.send(body, Buffer.isBuffer(body) && next() < 0.5);
      }
      if (i % 100 === 99) {
        previous = await healthyTurn(healthy, previous).catch((error: unknown) => {
          report.problems.push(String(error));
          return undefined;
        });
        if (previous !== undefined) report.healthyTurns++;
      }
    }
  } finally {
    process.off('uncaughtException', crash);
    fuzz.close();
    healthy.close();
    await server.close();
  }
  return report;
}

export function formatFuzz(report: FuzzReport): string {
  const answers = Object.entries(report.answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');
  return [
    `server fuzz (seed ${report.seed}): ${report.cases} cases, ${report.http} over HTTP, ${report.ws} over WebSocket`,
    `answers: ${answers}`,
    `healthy session alongside: ${report.healthyTurns} turns completed`,
    `problems: ${report.problems.length === 0 ? 'none' : report.problems.length}`,
    ...report.problems.slice(0, 10).map((problem) => `  ${problem}`),
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { cases: { type: 'string', default: '10000' }, seed: { type: 'string', default: '1' } },
  });
  runServerFuzz(Number(values.cases), Number(values.seed)).then(
    (report) => {
      console.log(formatFuzz(report));
      if (report.problems.length > 0) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
