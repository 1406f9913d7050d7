import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { WebSocketServer } from 'ws';
import { repoRoot } from './runProcess';

// Streams recorded from the live OpenAI API by other projects (`../shared/real-streams`, see its INDEX.md),
// served as an endpoint's answers: each generating request, over HTTP+SSE or WebSocket mode, gets the next
// recorded response's events, byte for byte as recorded (a WebSocket frame per event, an SSE block per event
// over HTTP). A warm-up (`generate: false`) is answered from the recording's own first response object, as the
// API would answer it, or in the shape a test asks for.

export const REAL_STREAMS = path.resolve(repoRoot, '../shared/real-streams');

/** One recorded event: its JSON text exactly as recorded, and the parsed value. */
export interface RecordedEvent {
  text: string;
  value: Record<string, unknown> & { type: string };
}

/** One recorded response: its events from `response.created` to its terminal event (or the stream's end). */
export type RecordedAnswer = RecordedEvent[];

export interface Recording {
  file: string;
  answers: RecordedAnswer[];
}

/** The recordings in `../shared/real-streams` (both formats), in name order; none where the folder is absent. */
export function realStreamFiles(): string[] {
  if (!fs.existsSync(REAL_STREAMS)) return [];
  return fs
    .readdirSync(REAL_STREAMS)
    .filter((name) => name.endsWith('.chunks.txt') || name.endsWith('.yaml'))
    .sort();
}

const parsed = (text: string): RecordedEvent => ({ text, value: JSON.parse(text) as RecordedEvent['value'] });

/** The SSE body's `data:` payloads, one per event block. */
function sseEvents(body: string): RecordedEvent[] {
  return body
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n'),
    )
    .filter((data) => data !== '' && data !== '[DONE]')
    .map(parsed);
}

/** Splits one stream of events into responses: a new one starts at each `response.created`. */
function byResponse(events: RecordedEvent[]): RecordedAnswer[] {
  const answers: RecordedAnswer[] = [];
  for (const event of events) {
    const last = answers[answers.length - 1];
    if (event.value.type === 'response.created' || last === undefined) answers.push([event]);
    else last.push(event);
  }
  return answers;
}

interface Cassette {
  interactions: { request: { method: string }; response: { body: { string: string } } }[];
}

/** Reads a recording: a vercel/ai `*.chunks.txt` (one event per line) or a VCR cassette's POST answers. */
export function readRecording(file: string): Recording {
  const text = fs.readFileSync(path.join(REAL_STREAMS, file), 'utf8');
  if (file.endsWith('.chunks.txt')) {
    const events = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map(parsed);
    return { file, answers: byResponse(events) };
  }
  const cassette = loadYaml(text) as Cassette;
  // A GET of a background response replays what the POST already streamed: only the POSTs are answers.
  const posts = cassette.interactions.filter((interaction) => interaction.request.method === 'POST');
  return { file, answers: posts.flatMap((interaction) => byResponse(sseEvents(interaction.response.body.string))) };
}

/** How the warm-up is answered: from the recording, with the three fields a client needs alone, or badly. */
export type WarmupAnswer = 'recorded' | 'minimal' | 'malformed' | 'refused' | 'silent';

export interface RecordedEndpointOptions {
  warmup?: WarmupAnswer;
}

/** A request the endpoint received: its transport and body. */
export interface ReceivedRequest {
  transport: 'http' | 'ws';
  body: Record<string, unknown>;
}

export interface RecordedEndpoint {
  /** The base URL (`http://127.0.0.1:PORT/v1`). */
  url: string;
  requests: ReceivedRequest[];
  /** The generating requests (warm-ups left out). */
  readonly generating: ReceivedRequest[];
  close(): Promise<void>;
}

/** The response object of a recorded answer's first event (`response.created`'s), if it has one. */
export function responseOf(answer: RecordedAnswer): Record<string, unknown> | undefined {
  const first = answer[0]?.value.response;
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
}

/** The events of a warm-up's answer in the shape `how` names (none for `silent`). */
function warmupEvents(recording: Recording, how: WarmupAnswer, serial: number): string[] {
  const id = `resp_warmup_${serial}`;
  switch (how) {
    case 'silent':
      return [];
    case 'refused':
      return [
        JSON.stringify({
          type: 'error',
          status: 400,
          error: {
            type: 'invalid_request_error',
            code: 'unsupported_parameter',
            message: "Unsupported parameter: 'generate'.",
            param: 'generate',
          },
        }),
      ];
    case 'malformed':
      return [
        '{"type":"response.created","response":',
        JSON.stringify({ type: 'response.completed', response: { id } }),
      ];
    case 'minimal':
      return [JSON.stringify({ type: 'response.completed', response: { id, status: 'completed', output: [] } })];
    case 'recorded': {
      const base = responseOf(recording.answers[0] ?? []) ?? {};
      const object = { ...base, id, output: [], usage: null };
      return [
        JSON.stringify({
          type: 'response.created',
          sequence_number: 0,
          response: { ...object, status: 'in_progress' },
        }),
        JSON.stringify({
          type: 'response.completed',
          sequence_number: 1,
          response: { ...object, status: 'completed' },
        }),
      ];
    }
  }
}

const typeOf = (text: string): string => {
  try {
    const value = JSON.parse(text) as { type?: unknown };
    return typeof value.type === 'string' ? value.type : 'message';
  } catch {
    return 'message';
  }
};

/** Serves `recording` on 127.0.0.1 over HTTP+SSE (`POST /v1/responses`) and WebSocket mode (the same path). */
export async function startRecordedEndpoint(
  recording: Recording,
  options: RecordedEndpointOptions = {},
): Promise<RecordedEndpoint> {
  const requests: ReceivedRequest[] = [];
  let next = 0;
  let warmups = 0;
  /** The frames that answer `body`: a warm-up's, or the next recorded response's. */
  const answer = (transport: 'http' | 'ws', body: Record<string, unknown>): string[] => {
    requests.push({ transport, body });
    if (body.generate === false) return warmupEvents(recording, options.warmup ?? 'recorded', ++warmups);
    const recorded = recording.answers[next++];
    if (recorded) return recorded.map((event) => event.text);
    return [
      JSON.stringify({
        type: 'error',
        status: 500,
        error: {
          type: 'server_error',
          code: 'server_error',
          message: `The recording has no answer ${next}.`,
          param: null,
        },
      }),
    ];
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/responses')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const frames = answer('http', JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames) response.write(`event: ${typeOf(frame)}\ndata: ${frame}\n\n`);
      response.end();
    });
  });
  const wss = new WebSocketServer({ server, path: '/v1/responses' });
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const body = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
      for (const frame of answer('ws', body)) socket.send(frame);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get generating() {
      return requests.filter((request) => request.body.generate !== false);
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The recorded final text of an answer: its `response.output_text.done` texts, in order. */
export function recordedTexts(answer: RecordedAnswer): string[] {
  return answer.flatMap((event) =>
    event.value.type === 'response.output_text.done' && typeof event.value.text === 'string' ? [event.value.text] : [],
  );
}

/** The function calls an answer asks for (their `call_id`s, from `response.output_item.done`). */
export function recordedCallIds(answer: RecordedAnswer): string[] {
  return answer.flatMap((event) => {
    const item = event.value.item as { type?: unknown; call_id?: unknown } | undefined;
    return event.value.type === 'response.output_item.done' &&
      item?.type === 'function_call' &&
      typeof item.call_id === 'string'
      ? [item.call_id]
      : [];
  });
}

/** The id of the response an answer ends with (its terminal event's), the one a next request chains from. */
export function recordedResponseId(answer: RecordedAnswer): string | undefined {
  const last = [...answer]
    .reverse()
    .find((event) => /^response\.(completed|incomplete|failed)$/.test(event.value.type));
  const response = last?.value.response as { id?: unknown } | undefined;
  return typeof response?.id === 'string' ? response.id : undefined;
}
