import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type LoopwireServer, type ServerLimits, loadScenarioFile, startServer } from '../../../src/server';
import { ECHO_SCENARIO, WsClient, finalResponse, post, postUntilCut, sseBlocks, useServer } from './support/harness';

// `store: true` responses: GET /v1/responses/{id}, HTTP chaining, the exact refusal of an id that was never
// stored, --store-dir across restarts, and the cap that keeps the store bounded.

interface Response {
  id: string;
  status: string;
  store: boolean;
  previous_response_id: string | null;
  output: { type: string; call_id?: string; content?: { text: string }[] }[];
}

const notFoundBody = (id: string) => ({
  error: {
    type: 'invalid_request_error',
    code: 'previous_response_not_found',
    message: `Previous response with id '${id}' not found.`,
    param: 'previous_response_id',
  },
});
const unknownIdBody = (id: string) => ({
  error: {
    type: 'invalid_request_error',
    code: null,
    message: `Response with id '${id}' not found.`,
    param: 'response_id',
  },
});
const text = (response: Response) => response.output[0]?.content?.map((part) => part.text).join('');

/** The HTTP calls a store test makes against one server. */
function api(server: () => LoopwireServer) {
  const create = async (body: Record<string, unknown>): Promise<Response> => {
    const reply = await post(`${server().url}/responses`, { model: 'm', ...body });
    assert.equal(reply.status, 200, reply.text);
    return JSON.parse(reply.text) as Response;
  };
  return {
    create,
    /** Chains the echo scenario's tool output onto `parent` (its function call). */
    answer: (parent: Response, extra: Record<string, unknown> = {}) =>
      create({
        previous_response_id: parent.id,
        input: [{ type: 'function_call_output', call_id: parent.output[0]?.call_id, output: 'hi' }],
        ...extra,
      }),
    refused: async (body: Record<string, unknown>) => {
      const reply = await post(`${server().url}/responses`, { model: 'm', ...body });
      return { status: reply.status, body: JSON.parse(reply.text) as unknown };
    },
    get: async (id: string) => {
      const reply = await fetch(`${server().url}/responses/${encodeURIComponent(id)}`);
      return { status: reply.status, body: await reply.json() };
    },
  };
}

describe('store: in memory', () => {
  const harness = useServer();
  const { create, answer, refused, get } = api(() => harness.server);

  it('HTTP chaining with store:true (the default): the next request sends only the tool output', async () => {
    const first = await create({ input: 'echo hi' });
    assert.equal(first.store, true);
    assert.equal(first.output[0]?.type, 'function_call');
    const second = await answer(first);
    assert.equal(text(second), 'It printed: hi');
    assert.equal(second.previous_response_id, first.id);
    // Step 3 can only be known from the whole chain, reloaded link by link.
    const third = await create({ previous_response_id: second.id, input: [] });
    assert.equal(text(third), "loopwire-server: scenario 'echo' has no step 3 (it has 2).");
    assert.deepEqual(
      harness.turns.map((turn) => turn.chainedFrom),
      ['none', 'store', 'store'],
    );
  });

  it('GET /v1/responses/{id} returns the stored response as it was sent, JSON or streamed', async () => {
    const created = await create({ input: 'echo hi' });
    assert.deepEqual(await get(created.id), { status: 200, body: created });
    const streamed = await postUntilCut(`${harness.url}/responses`, { model: 'm', stream: true, input: 'hello there' });
    const completed = sseBlocks(streamed.text).at(-1);
    assert.equal(completed?.event, 'response.completed');
    const response = (JSON.parse(completed?.data ?? '{}') as { response: Response }).response;
    assert.deepEqual(await get(response.id), { status: 200, body: response });
  });

  it('a response created over WebSocket with store:true can be fetched and chained over HTTP', async () => {
    const client = await WsClient.open(harness.url);
    try {
      const response = finalResponse(await client.turn({ model: 'm', input: 'echo hi' })) as unknown as Response;
      assert.deepEqual((await get(response.id)).status, 200);
      assert.equal(text(await answer(response)), 'It printed: hi');
    } finally {
      client.close();
    }
  });

  it('GET of an unknown id is 404 with the API error body', async () => {
    assert.deepEqual(await get('resp_nope'), { status: 404, body: unknownIdBody('resp_nope') });
    assert.deepEqual(await get('../../etc/passwd'), { status: 404, body: unknownIdBody('../../etc/passwd') });
  });

  it('a store:false id is unknown to GET, and chaining on it is 400 with the exact §3.3 body', async () => {
    const unstored = await create({ store: false, input: 'echo hi' });
    assert.equal(unstored.store, false);
    assert.deepEqual(await get(unstored.id), { status: 404, body: unknownIdBody(unstored.id) });
    assert.deepEqual(await refused({ previous_response_id: unstored.id, input: 'more' }), {
      status: 400,
      body: notFoundBody(unstored.id),
    });
    assert.deepEqual(await refused({ previous_response_id: 'resp_never', input: 'more' }), {
      status: 400,
      body: notFoundBody('resp_never'),
    });
    assert.equal(harness.server.stats().storedResponses, 0);
  });
});

describe('store: the cap (storedResponses: 2)', () => {
  const harness = useServer({ limits: { storedResponses: 2 } });
  const { create, refused, get } = api(() => harness.server);

  it('keeps the newest two; the oldest is gone for GET and for chaining', async () => {
    const [a, b, c] = [
      await create({ input: 'one' }),
      await create({ input: 'two' }),
      await create({ input: 'three' }),
    ];
    assert.ok(a && b && c);
    assert.equal(harness.server.stats().storedResponses, 2);
    assert.deepEqual(await get(a.id), { status: 404, body: unknownIdBody(a.id) });
    assert.deepEqual(await refused({ previous_response_id: a.id, input: 'more' }), {
      status: 400,
      body: notFoundBody(a.id),
    });
    assert.equal((await get(b.id)).status, 200);
    assert.equal((await get(c.id)).status, 200);
  });
});

describe('store: on disk (--store-dir)', () => {
  let dir: string;
  const servers: LoopwireServer[] = [];
  let current: LoopwireServer;
  const logged: string[] = [];
  const start = async (limits: Partial<ServerLimits> = {}) => {
    current = await startServer({
      storeDir: dir,
      tps: 20_000,
      prefillUsPerToken: 0,
      scenarios: [loadScenarioFile(ECHO_SCENARIO)],
      limits,
      log: (line) => logged.push(line),
    });
    servers.push(current);
    return current;
  };
  const restart = async (limits: Partial<ServerLimits> = {}) => {
    await current.close();
    return start(limits);
  };
  const { create, answer, refused, get } = api(() => current);
  const files = () => fs.readdirSync(dir).sort();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-store-'));
    logged.length = 0;
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('survives a restart: GET the same response, chain on it, and a two-link chain reloads whole', async () => {
    await start();
    const first = await create({ input: 'echo hi' });
    const unstored = await create({ store: false, input: 'echo hi' });
    assert.deepEqual(files(), [`${first.id}.json`], 'only store:true responses are written');
    await restart();
    assert.deepEqual(await get(first.id), { status: 200, body: first });
    assert.deepEqual(await refused({ previous_response_id: unstored.id, input: 'x' }), {
      status: 400,
      body: notFoundBody(unstored.id),
    });
    const second = await answer(first);
    assert.equal(text(second), 'It printed: hi');
    await restart();
    // Step 3 of the scenario is known only from both links: the user message in the first, output in each.
    const third = await create({ previous_response_id: second.id, input: [] });
    assert.equal(text(third), "loopwire-server: scenario 'echo' has no step 3 (it has 2).");
    assert.equal(current.stats().storedResponses, 3);
  });

  it('a corrupt or foreign file in the directory is ignored, not a crash; eviction still works past it', async () => {
    fs.writeFileSync(path.join(dir, 'my notes.json'), 'not a response');
    fs.writeFileSync(path.join(dir, 'resp_corrupt.json'), '{"response": {"id": "resp_corr');
    fs.writeFileSync(path.join(dir, 'resp_shape.json'), '{"hello": "world"}');
    fs.writeFileSync(path.join(dir, 'README.txt'), 'hands off');
    await start({ storedResponses: 2 });
    assert.deepEqual(await get('resp_corrupt'), { status: 404, body: unknownIdBody('resp_corrupt') });
    assert.deepEqual(await get('resp_shape'), { status: 404, body: unknownIdBody('resp_shape') });
    assert.deepEqual(await refused({ previous_response_id: 'resp_corrupt', input: 'x' }), {
      status: 400,
      body: notFoundBody('resp_corrupt'),
    });
    assert.ok(
      logged.some((line) => line.includes('resp_corrupt.json is not a stored response')),
      logged.join('\n'),
    );
    const made = [await create({ input: 'one' }), await create({ input: 'two' }), await create({ input: 'three' })];
    assert.deepEqual(files(), ['README.txt', 'my notes.json', ...made.slice(1).map((r) => `${r.id}.json`)].sort());
    assert.equal((await get(made[2]?.id ?? '')).status, 200);
  });

  it('after a restart, evicts in the order written, however close together the files were written', async () => {
    // The file system dates files by a coarse clock: a burst of writes shares a modification time.
    await start({ storedResponses: 12 });
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await create({ input: `burst ${i}` }));
    const dated = made.map((r) => fs.statSync(path.join(dir, `${r.id}.json`)).mtimeMs);
    dated.slice(1).forEach((at, i) => assert.ok(at > (dated[i] ?? 0), `file ${i + 1} dated after file ${i}`));
    for (const evicted of made.slice(0, 6)) {
      await restart({ storedResponses: 12 });
      await create({ input: 'one more' });
      assert.equal((await get(evicted.id)).status, 404, `${made.indexOf(evicted)} went first`);
      assert.equal(files().length, 12);
    }
  });

  it('evicts the oldest file past the cap, across restarts too, even one loaded into memory after a restart', async () => {
    await start({ storedResponses: 2 });
    const a = await create({ input: 'one' });
    const b = await create({ input: 'two' });
    await restart({ storedResponses: 2 });
    assert.equal((await get(a.id)).status, 200, 'loaded from disk into memory');
    const c = await create({ input: 'three' });
    assert.deepEqual(files(), [`${b.id}.json`, `${c.id}.json`].sort());
    assert.deepEqual(await get(a.id), { status: 404, body: unknownIdBody(a.id) });
    assert.equal(current.stats().storedResponses, 2);
    await restart({ storedResponses: 2 });
    assert.equal((await get(a.id)).status, 404);
    assert.equal((await get(b.id)).status, 200);
    assert.equal((await get(c.id)).status, 200);
  });
});
