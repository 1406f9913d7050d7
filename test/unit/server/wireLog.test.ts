import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startServer } from '../../../src/server';
import {
  WsClient,
  adminUrl,
  finalResponse,
  post,
  postUntilCut,
  refusedUpgrade,
  sseBlocks,
  useServer,
} from './support/harness';
import { eventually } from '../support/eventually';
import { useTempWorkspace } from '../support/tempWorkspace';

// The wire log (`--log FILE`): one JSON line per HTTP request, SSE event and WebSocket frame, both ways, with
// the fields of the issue. Values are checked against what the client itself sent and received.

interface Line {
  ts: number;
  conn: string;
  transport: 'http' | 'ws';
  dir?: 'in' | 'out';
  type: string;
  bytes?: number;
  previous_response_id?: string | null;
  status?: number;
}

const TOKEN = 'log-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const without = (line: Line) => {
  const { ts: _ts, ...rest } = line;
  return rest;
};

describe('wire log', () => {
  const temp = useTempWorkspace({}, { prefix: 'wirelog' });
  let file: string;
  let startedAt: number;
  beforeEach(() => {
    file = temp.path('wire.jsonl');
    startedAt = Date.now();
  });
  const harness = useServer(() => ({ logFile: file, token: TOKEN, limits: { maxBodyBytes: 1000 } }));
  const responses = () => `${harness.url}/responses`;

  /** Stops the server (which flushes the log) and returns its lines, each checked for the common fields. */
  const readLog = async (): Promise<Line[]> => {
    await harness.server.close();
    const finishedAt = Date.now();
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    let previous = 0;
    for (const line of lines) {
      assert.ok(Number.isInteger(line.ts), `ts is whole milliseconds: ${line.ts}`);
      assert.ok(line.ts >= startedAt && line.ts <= finishedAt, `ts ${line.ts} is ms since the epoch, now`);
      assert.ok(line.ts >= previous, 'in the order written');
      previous = line.ts;
      assert.ok(['http', 'ws'].includes(line.transport), JSON.stringify(line));
      assert.match(line.conn, line.transport === 'http' ? /^h\d+$/ : /^[wu]\d+$/);
      assert.equal(typeof line.type, 'string');
      if (line.dir !== undefined) {
        assert.ok(['in', 'out'].includes(line.dir));
        assert.ok(
          Number.isInteger(line.bytes) && (line.bytes ?? -1) >= 0,
          `bytes on a frame line: ${JSON.stringify(line)}`,
        );
      }
      if (line.dir === 'in' && (line.type === 'POST /v1/responses' || line.type === 'response.create'))
        assert.ok(
          'previous_response_id' in line,
          `every request carries previous_response_id: ${JSON.stringify(line)}`,
        );
    }
    return lines;
  };

  it('HTTP JSON: the request with its size and previous_response_id null, the answer with its size', async () => {
    const body = JSON.stringify({ model: 'm', store: false, input: 'echo hi' });
    const reply = await post(responses(), body, AUTH);
    assert.equal(reply.status, 200);
    const lines = await readLog();
    assert.equal(lines.length, 2);
    const conn = lines[0]?.conn ?? '';
    assert.deepEqual(lines.map(without), [
      {
        conn,
        transport: 'http',
        dir: 'in',
        type: 'POST /v1/responses',
        bytes: Buffer.byteLength(body),
        previous_response_id: null,
      },
      { conn, transport: 'http', dir: 'out', type: 'response', bytes: Buffer.byteLength(reply.text), status: 200 },
    ]);
  });

  it('HTTP+SSE: one line per event, typed as the event, its bytes the SSE block as sent', async () => {
    const body = { model: 'm', store: false, stream: true, input: 'echo hi' };
    const reply = await postUntilCut(responses(), body, AUTH);
    const blocks = sseBlocks(reply.text);
    assert.ok(blocks.length >= 6);
    const lines = await readLog();
    const [request, ...events] = lines;
    assert.deepEqual(without(request as Line), {
      conn: request?.conn,
      transport: 'http',
      dir: 'in',
      type: 'POST /v1/responses',
      bytes: Buffer.byteLength(JSON.stringify(body)),
      previous_response_id: null,
    });
    assert.deepEqual(
      events.map(without),
      blocks.map((block) => ({
        conn: request?.conn,
        transport: 'http',
        dir: 'out',
        type: block.event,
        bytes: Buffer.byteLength(block.raw),
      })),
    );
    assert.equal(events.at(-1)?.type, 'response.completed');
  });

  it('a chained HTTP request carries its previous_response_id, even when it is then refused', async () => {
    const first = await post(responses(), { model: 'm', input: 'echo hi' }, AUTH);
    const id = (JSON.parse(first.text) as { id: string }).id;
    const call = (JSON.parse(first.text) as { output: { call_id: string }[] }).output[0]?.call_id;
    const chained = {
      model: 'm',
      previous_response_id: id,
      input: [{ type: 'function_call_output', call_id: call, output: 'hi' }],
    };
    assert.equal((await post(responses(), chained, AUTH)).status, 200);
    assert.equal(
      (await post(responses(), { model: 'm', previous_response_id: 'resp_gone', input: 'x' }, AUTH)).status,
      400,
    );
    assert.equal((await post(responses(), { model: 5, previous_response_id: id }, AUTH)).status, 400);
    assert.equal((await post(responses(), '{"previous_response_id": "resp_', AUTH)).status, 400);
    const requests = (await readLog()).filter((line) => line.dir === 'in');
    assert.deepEqual(
      requests.map((line) => line.previous_response_id),
      [null, id, 'resp_gone', id, null],
    );
  });

  it('every HTTP request gets an in line and an out line, whatever the route or refusal; a 413 logs its true size', async () => {
    const big = JSON.stringify({ model: 'm', input: 'x'.repeat(1500) });
    const statuses = [
      (await fetch(`${responses()}/resp_unknown`, { headers: AUTH })).status,
      (await fetch(`${harness.url}/models`, { headers: AUTH })).status,
      (await fetch(`${harness.url}/nope`, { headers: AUTH })).status,
      (await fetch(responses(), { headers: AUTH })).status,
      (await post(responses(), { model: 'm', input: 'x' })).status,
      (await post(responses(), big, AUTH)).status,
      (await fetch(adminUrl(harness.url, 'stats'), { headers: AUTH })).status,
    ];
    assert.deepEqual(statuses, [404, 200, 404, 405, 401, 413, 200]);
    const lines = await readLog();
    const ins = lines.filter((line) => line.dir === 'in');
    assert.deepEqual(
      ins.map((line) => [line.type, line.previous_response_id]),
      [
        ['GET /v1/responses/{id}', null],
        ['GET /v1/models', null],
        ['GET /v1/nope', null],
        ['GET /v1/responses', null],
        ['POST /v1/responses', null],
        ['POST /v1/responses', null],
        ['GET /admin/stats', null],
      ],
    );
    assert.equal(ins[5]?.bytes, Buffer.byteLength(big));
    assert.deepEqual(
      lines.filter((line) => line.dir === 'out').map((line) => line.status),
      statuses,
    );
  });

  it('POST /v1/responses/compact logs its in line as a response does: a 413’s true size, a refused body, its previous id', async () => {
    const compact = `${responses()}/compact`;
    const big = JSON.stringify({ model: 'm', input: 'x'.repeat(1500) });
    const bodies = [
      big,
      '{"model": "m", ',
      { model: 'm', input: 'hello' },
      { model: 'm', previous_response_id: 'resp_gone' },
    ];
    const statuses: number[] = [];
    for (const body of bodies) statuses.push((await post(compact, body, AUTH)).status);
    assert.deepEqual(statuses, [413, 400, 200, 400]);
    const lines = await readLog();
    const ins = lines.filter((line) => line.dir === 'in');
    assert.deepEqual(
      ins.map((line) => [line.type, line.bytes, line.previous_response_id]),
      bodies.map((body, index) => [
        'POST /v1/responses/compact',
        Buffer.byteLength(typeof body === 'string' ? body : JSON.stringify(body)),
        index === 3 ? 'resp_gone' : null,
      ]),
    );
    assert.deepEqual(
      lines.filter((line) => line.dir === 'out').map((line) => line.status),
      statuses,
    );
  });

  it('WebSocket: open, each frame both ways with its own type and exact size, a chained create with its id, close', async () => {
    const client = await WsClient.open(harness.url, AUTH);
    const sent: string[] = [];
    const send = (event: Record<string, unknown>) => {
      const text = JSON.stringify(event);
      sent.push(text);
      client.socket.send(text);
    };
    send({ type: 'response.create', model: 'm', store: false, input: 'echo hi' });
    await client.until((frames) => frames.some((frame) => frame.type === 'response.completed'));
    const first = finalResponse(client.frames);
    const call = (first.output[0] as { call_id: string }).call_id;
    const received = client.frames.length;
    send({
      type: 'response.create',
      model: 'm',
      store: false,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call, output: 'hi' }],
    });
    await client.until((frames) => frames.slice(received).some((frame) => frame.type === 'response.completed'));
    client.socket.send('not json');
    await client.until((frames) => frames.at(-1)?.type === 'error');
    client.close();
    await client.closed();
    await eventually(() => harness.server.stats().connections === 0, { message: 'every connection to close' });

    const lines = (await readLog()).filter((line) => line.transport === 'ws');
    const conn = lines[0]?.conn ?? '';
    assert.match(conn, /^w\d+$/);
    assert.ok(
      lines.every((line) => line.conn === conn),
      'one connection id for the whole socket',
    );
    assert.deepEqual(without(lines[0] as Line), { conn, transport: 'ws', type: 'open' });
    assert.deepEqual(without(lines.at(-1) as Line), { conn, transport: 'ws', type: 'close' });

    const ins = lines.filter((line) => line.dir === 'in').map(without);
    assert.deepEqual(ins, [
      {
        conn,
        transport: 'ws',
        dir: 'in',
        type: 'response.create',
        bytes: Buffer.byteLength(sent[0] ?? ''),
        previous_response_id: null,
      },
      {
        conn,
        transport: 'ws',
        dir: 'in',
        type: 'response.create',
        bytes: Buffer.byteLength(sent[1] ?? ''),
        previous_response_id: first.id,
      },
      { conn, transport: 'ws', dir: 'in', type: 'invalid', bytes: 'not json'.length },
    ]);
    const outs = lines.filter((line) => line.dir === 'out').map(without);
    assert.deepEqual(
      outs,
      client.frames.map((frame, index) => ({
        conn,
        transport: 'ws',
        dir: 'out',
        type: frame.type,
        bytes: client.sizes[index],
      })),
    );
    assert.equal(outs.filter((line) => line.type === 'response.completed').length, 2);
    assert.equal(outs.at(-1)?.type, 'error');
  });

  it('two sockets and HTTP get distinct connection ids; a refused upgrade is logged with its status', async () => {
    const a = await WsClient.open(harness.url, AUTH);
    const b = await WsClient.open(harness.url, AUTH);
    await Promise.all([
      a.turn({ model: 'm', store: false, input: 'echo hi' }),
      b.turn({ model: 'm', store: false, input: 'echo hi' }),
    ]);
    assert.equal((await refusedUpgrade(harness.url)).status, 401);
    await post(responses(), { model: 'm', store: false, input: 'echo hi' }, AUTH);
    const lines = await readLog();
    const opened = lines.filter((line) => line.type === 'open').map((line) => line.conn);
    assert.equal(new Set(opened).size, 2);
    for (const conn of opened)
      assert.equal(lines.filter((line) => line.conn === conn && line.type === 'response.create').length, 1);
    const http = lines.filter((line) => line.transport === 'http').map((line) => line.conn);
    assert.ok(http.length >= 2 && http.every((conn) => !opened.includes(conn)));
    const upgrade = lines.find((line) => line.type === 'upgrade');
    assert.deepEqual(upgrade && without(upgrade), {
      conn: upgrade?.conn,
      transport: 'ws',
      dir: 'in',
      type: 'upgrade',
      bytes: 0,
      status: 401,
    });
  });

  it('close() flushes the log, with the close line of every socket it cut', async () => {
    const client = await WsClient.open(harness.url, AUTH);
    await client.turn({ model: 'm', store: false, input: 'echo hi' });
    const lines = await readLog();
    const conn = lines.find((line) => line.type === 'open')?.conn;
    assert.deepEqual(
      lines.filter((line) => line.dir === undefined).map((line) => [line.conn, line.type]),
      [
        [conn, 'open'],
        [conn, 'close'],
      ],
    );
    assert.equal(lines.at(-1)?.type, 'close');
  });

  it('appends: a second server on the same file adds its lines after the first one’s', async () => {
    await post(responses(), { model: 'm', store: false, input: 'echo hi' }, AUTH);
    const before = (await readLog()).length;
    const again = await startServer({ logFile: file });
    try {
      assert.equal((await post(`${again.url}/responses`, { model: 'm', store: false, input: 'hello' })).status, 200);
    } finally {
      await again.close();
    }
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, before + 2);
  });
});
