import * as assert from 'node:assert/strict';
import { loadScenarioFile } from '../../../src/server';
import { SdkSocket } from './support/sdkSocket';
import { ECHO_SCENARIO, WsClient, finalResponse, useServer } from './support/harness';
import { storyScenario } from './support/scenarios';

// WebSocket mode with the SDK's own client (`ResponsesWS`) and a plain `ws` client where frame order matters.

const tools = [
  { type: 'function' as const, name: 'exec_command', parameters: { type: 'object', properties: {} }, strict: false },
];

describe('server over WebSocket: chaining and the connection cache', () => {
  const harness = useServer();
  const sockets: SdkSocket[] = [];
  const open = () => {
    const socket = new SdkSocket(harness.url);
    sockets.push(socket);
    return socket;
  };
  afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

  it('chains over one socket: the second turn sends only the tool output, the cache supplies the rest', async () => {
    const socket = open();
    const first = await socket.turn({
      model: 'gpt-5.5',
      store: false,
      tools,
      input: [{ role: 'user', content: 'echo hi' }],
    });
    const call = first.output[0];
    assert.ok(call?.type === 'function_call');
    assert.equal(call.name, 'exec_command');
    const second = await socket.turn({
      model: 'gpt-5.5',
      store: false,
      tools,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hi\n' }],
    });
    const message = second.output[0];
    assert.ok(message?.type === 'message');
    assert.deepEqual(
      message.content.map((part) => (part.type === 'output_text' ? part.text : '')),
      ['It printed: hi'],
    );
    assert.equal(second.previous_response_id, first.id);
    assert.deepEqual(
      harness.turns.map((turn) => turn.chainedFrom),
      ['none', 'connection'],
    );
    assert.deepEqual(socket.errors, []);
  });

  it('usage on a chained turn: input_tokens is the whole context (as over HTTP), cached_tokens the part the socket held', async () => {
    const socket = open();
    const first = await socket.turn({ model: 'm', store: false, tools, input: [{ role: 'user', content: 'echo hi' }] });
    const call = first.output[0];
    assert.ok(call?.type === 'function_call');
    const output = { type: 'function_call_output' as const, call_id: call.call_id, output: 'hi\n'.repeat(50) };
    const chained = await socket.turn({
      model: 'm',
      store: false,
      tools,
      previous_response_id: first.id,
      input: [output],
    });
    const full = await socket.turn({
      model: 'm',
      store: false,
      tools,
      input: [{ role: 'user', content: 'echo hi' }, ...(first.output as never[]), output],
    });
    const usage = chained.usage;
    assert.ok(usage && full.usage);
    assert.equal(usage.input_tokens, full.usage.input_tokens, 'the same context counts the same, chained or not');
    assert.ok(usage.input_tokens_details.cached_tokens > 0);
    assert.ok(usage.input_tokens_details.cached_tokens < usage.input_tokens, 'the new tool output is not cached');
    assert.ok(
      usage.input_tokens_details.cached_tokens >= (first.usage?.input_tokens ?? Infinity),
      'all of turn 1 was cached',
    );
    assert.equal(harness.turns[2]?.chainedFrom, 'none');
    assert.ok(
      full.usage.input_tokens_details.cached_tokens > 0,
      'the prompt-prefix cache serves a repeated prefix to a full request too',
    );
  });

  it('after reconnecting, a store:false id is previous_response_not_found (exact shape); the socket stays usable', async () => {
    const first = open();
    const gone = await first.turn({ model: 'm', store: false, input: 'echo hi' });
    first.close();
    const raw = await WsClient.open(harness.url);
    try {
      const frames = await raw.turn({ model: 'm', store: false, previous_response_id: gone.id, input: [] });
      assert.deepEqual(frames, [
        {
          type: 'error',
          status: 400,
          error: {
            type: 'invalid_request_error',
            code: 'previous_response_not_found',
            message: `Previous response with id '${gone.id}' not found.`,
            param: 'previous_response_id',
          },
        },
      ]);
      const again = await raw.turn({ model: 'm', store: false, input: 'echo hi' });
      assert.equal(finalResponse(again).status, 'completed');
      assert.equal(raw.closeCode, undefined);
    } finally {
      raw.close();
    }
    const sdk = open();
    await assert.rejects(sdk.turn({ model: 'm', previous_response_id: gone.id, input: [] }), {
      message: `Previous response with id '${gone.id}' not found.`,
    });
    assert.equal((await sdk.turn({ model: 'm', input: 'echo hi' })).status, 'completed');
  });

  it('a store:true id chains on a new socket too, reloaded from the store', async () => {
    const first = await open().turn({ model: 'm', store: true, input: 'echo hi' });
    const call = first.output[0];
    assert.ok(call?.type === 'function_call');
    const second = await open().turn({
      model: 'm',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hi' }],
    });
    assert.equal(second.output[0]?.type, 'message');
    assert.equal(harness.turns[1]?.chainedFrom, 'store');
  });

  it('generate:false warms up: an id with no output, chainable, and not counted as a model response', async () => {
    const socket = open();
    const warm = await socket.turn({
      model: 'm',
      store: false,
      generate: false,
      instructions: 'You are Loopwire.',
      tools,
      input: [{ role: 'developer', content: 'Work in /repo.' }],
    });
    assert.equal(warm.status, 'completed');
    assert.deepEqual(warm.output, []);
    assert.equal(warm.usage?.output_tokens, 0);
    const turn = await socket.turn({
      model: 'm',
      store: false,
      tools,
      previous_response_id: warm.id,
      input: 'echo hi',
    });
    assert.equal(turn.output[0]?.type, 'function_call', 'step 1, the warm-up did not count');
    assert.ok((turn.usage?.input_tokens_details.cached_tokens ?? 0) > 0);
  });

  it('instructions and tools are never inherited through previous_response_id', async () => {
    const socket = open();
    const first = await socket.turn({ model: 'm', store: false, instructions: 'Be brief.', tools, input: 'hello' });
    assert.equal(first.instructions, 'Be brief.');
    const second = await socket.turn({ model: 'm', store: false, previous_response_id: first.id, input: 'again' });
    assert.equal(second.instructions, null);
    assert.deepEqual(second.tools, []);
    // The second's input is the first's prompt and answer, and 'again': were the tools counted again, it would
    // reach the first's input (tools included) plus its answer.
    assert.ok(
      (second.usage?.input_tokens ?? 0) < (first.usage?.input_tokens ?? 0) + (first.usage?.output_tokens ?? 0),
      'the tools are not counted again',
    );
  });

  it('stream:true is accepted and ignored; sequence numbers restart at 0 for each response', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      for (let turn = 0; turn < 2; turn++) {
        const frames = await raw.turn({ model: 'm', store: false, stream: true, input: 'echo hi' });
        assert.deepEqual(
          frames.map((frame) => frame.sequence_number),
          frames.map((_, index) => index),
        );
        assert.equal(
          frames.some((frame) => 'stream_id' in frame),
          false,
          'the default lane echoes no stream_id',
        );
      }
    } finally {
      raw.close();
    }
  });

  it('one scenario plays the same over chaining and over full history on a socket', async () => {
    const echo = loadScenarioFile(ECHO_SCENARIO).scenarios[0];
    assert.ok(echo);
    const socket = open();
    const first = await socket.turn({ model: 'm', store: false, input: 'echo hi' });
    const call = first.output[0];
    assert.ok(call?.type === 'function_call');
    const result = { type: 'function_call_output' as const, call_id: call.call_id, output: 'hi' };
    const chained = await socket.turn({ model: 'm', store: false, previous_response_id: first.id, input: [result] });
    const full = await socket.turn({
      model: 'm',
      store: false,
      input: [{ role: 'user', content: 'echo hi' }, ...(first.output as never[]), result],
    });
    for (const response of [chained, full]) {
      const message = response.output[0];
      assert.ok(message?.type === 'message');
      assert.equal(message.content[0]?.type === 'output_text' && message.content[0].text, 'It printed: hi');
    }
  });
});

describe('server over WebSocket: lanes, order and limits', () => {
  const harness = useServer(() => ({
    tps: 4000,
    scenarios: [storyScenario(120), loadScenarioFile(ECHO_SCENARIO)],
    limits: { namedLanesPerConnection: 2 },
  }));
  let raw: WsClient;
  beforeEach(async () => (raw = await WsClient.open(harness.url)));
  afterEach(() => raw.close());

  const ids = (type: string, lane?: string) =>
    raw.frames
      .map((frame, index) => ({ frame, index }))
      .filter(
        ({ frame }) =>
          frame.type === type && (lane === undefined || (frame as { stream_id?: string }).stream_id === lane),
      );

  it('two creates back to back on one lane run in order: the second starts after the first completes', async () => {
    raw.send({ type: 'response.create', model: 'm', store: false, input: 'tell me a story' });
    raw.send({ type: 'response.create', model: 'm', store: false, input: 'echo hi' });
    await raw.until(() => ids('response.completed').length === 2);
    const created = ids('response.created');
    const completed = ids('response.completed');
    assert.ok((created[1]?.index ?? 0) > (completed[0]?.index ?? Infinity), 'no overlap on one lane');
    const outputs = completed.map(
      ({ frame }) => (frame as unknown as { response: { output: { type: string }[] } }).response.output[0]?.type,
    );
    assert.deepEqual(outputs, ['message', 'function_call'], 'answered in the order sent');
  });

  it('two named lanes interleave, and every event echoes its stream_id', async () => {
    raw.send({ type: 'response.create', model: 'm', store: false, stream_id: 'a', input: 'tell me a story' });
    raw.send({ type: 'response.create', model: 'm', store: false, stream_id: 'b', input: 'tell me a story' });
    await raw.until(() => ids('response.completed').length === 2);
    const aDeltas = ids('response.output_text.delta', 'a').map(({ index }) => index);
    const bDeltas = ids('response.output_text.delta', 'b').map(({ index }) => index);
    assert.ok(aDeltas.length > 1 && bDeltas.length > 1);
    assert.ok((bDeltas[0] ?? Infinity) < (aDeltas.at(-1) ?? 0), 'lane b streams while lane a is still streaming');
    for (const frame of raw.frames) assert.ok(['a', 'b'].includes((frame as { stream_id?: string }).stream_id ?? ''));
  });

  it('a third named lane is websocket_stream_limit_reached; a bad stream_id is invalid_stream_id; the socket stays open', async () => {
    await raw.turn({ model: 'm', store: false, stream_id: 'a', input: 'echo hi' });
    await raw.turn({ model: 'm', store: false, stream_id: 'b', input: 'echo hi' });
    const refused = await raw.turn({ model: 'm', store: false, stream_id: 'c', input: 'echo hi' });
    assert.deepEqual(
      refused.map((frame) => [frame.type, (frame.error as { code?: string } | undefined)?.code, frame.stream_id]),
      [['error', 'websocket_stream_limit_reached', 'c']],
    );
    const bad = await raw.turn({ model: 'm', store: false, stream_id: 'no spaces!', input: 'echo hi' });
    assert.equal((bad[0]?.error as { code?: string }).code, 'invalid_stream_id');
    assert.equal((bad[0]?.error as { param?: string }).param, 'stream_id');
    const reused = await raw.turn({ model: 'm', store: false, stream_id: 'a', input: 'echo hi' });
    assert.equal(finalResponse(reused).status, 'completed', 'an existing lane is still usable');
  });
});

describe('server over WebSocket: the active-response cap queues the rest', () => {
  const harness = useServer(() => ({
    tps: 4000,
    scenarios: [storyScenario(60)],
    limits: { activeResponsesPerConnection: 1 },
  }));

  it('with one active slot, two lanes take turns instead of interleaving', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      raw.send({ type: 'response.create', model: 'm', store: false, stream_id: 'a', input: 'tell me a story' });
      raw.send({ type: 'response.create', model: 'm', store: false, stream_id: 'b', input: 'tell me a story' });
      await raw.until((frames) => frames.filter((frame) => frame.type === 'response.completed').length === 2);
      const lanes = raw.frames.map((frame) => (frame as { stream_id?: string }).stream_id);
      const firstB = lanes.indexOf('b');
      assert.ok(firstB > lanes.lastIndexOf('a'), 'b waited for a');
    } finally {
      raw.close();
    }
  });
});

describe('server over WebSocket: the connection age limit', () => {
  const harness = useServer(() => ({ tps: 2000, scenarios: [storyScenario(300)], maxConnectionS: 0.4 }));

  it('an idle socket at its limit gets websocket_connection_limit_reached, then is closed (1001)', async () => {
    const raw = await WsClient.open(harness.url);
    const code = await raw.closed(5000);
    assert.equal(code, 1001);
    assert.equal(raw.frames.length, 1);
    const [frame] = raw.frames as { type: string; status: number; error: { code: string; type: string } }[];
    assert.deepEqual(
      [frame?.type, frame?.status, frame?.error.code, frame?.error.type],
      ['error', 400, 'websocket_connection_limit_reached', 'invalid_request_error'],
    );
  });
});

describe('server over WebSocket: the age limit while a response runs', () => {
  // 1,200 tokens at 2,000/s: the response outlives the 0.3 s limit.
  const harness = useServer(() => ({ tps: 2000, scenarios: [storyScenario(1200)], maxConnectionS: 0.3 }));

  it('the running response finishes; a turn sent after the limit is refused; then the socket closes (1001)', async () => {
    const raw = await WsClient.open(harness.url);
    raw.send({ type: 'response.create', model: 'm', store: false, input: 'tell me a story' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    raw.send({ type: 'response.create', model: 'm', store: false, input: 'tell me a story' });
    const code = await raw.closed(5000);
    assert.equal(code, 1001);
    const types = raw.frames.map((frame) => frame.type);
    const refused = types.indexOf('error');
    const completed = types.indexOf('response.completed');
    assert.ok(refused >= 0 && completed > refused, 'refused at once, while the first response was still streaming');
    assert.equal(
      (raw.frames[refused] as unknown as { error: { code: string } }).error.code,
      'websocket_connection_limit_reached',
    );
    assert.equal(types.at(-1), 'response.completed', 'the running response was not cut off');
    assert.equal(types.filter((type) => type === 'response.created').length, 1, 'nothing new started after the limit');
  });
});
