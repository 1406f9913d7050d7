import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { AnyServerEvent } from '../../../src/protocol';
import { type ScenarioFile, loadScenarioFile } from '../../../src/server';
import { openReasoning, sealReasoning } from '../../../src/server/reasoningSeal';
import { parses } from '../protocol/parses';
import { SdkSocket } from './support/sdkSocket';
import { ECHO_SCENARIO, type WireEvent, WsClient, finalResponse, post, useServer } from './support/harness';

// The backend is as strict as the API on what the API refuses, always (there is no lenient mode): every
// suite's client runs against these checks. Each refusal has the API's shape over HTTP (status and body)
// and over WebSocket (an `error` event, the socket left open and usable).

type Item = Record<string, unknown>;
interface ApiError {
  type: string;
  code: string | null;
  message: string;
  param: string | null;
}

const THINK: ScenarioFile = {
  scenarios: [
    {
      name: 'think',
      match: 'think first',
      steps: [
        {
          output: [
            { type: 'reasoning', summary: ['Look at the file.', 'Then run it.'] },
            { type: 'function_call', name: 'exec_command', arguments: { cmd: 'ls' } },
          ],
        },
        { output: [{ type: 'message', text: 'Done thinking.' }] },
      ],
    },
    {
      name: 'patch',
      match: 'patch it',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }] },
        { output: [{ type: 'message', text: 'Patched.' }] },
      ],
    },
  ],
};

const user = (content: string): Item => ({ role: 'user', content });
const invalid = (code: string | null, message: string, param: string | null): ApiError => ({
  type: 'invalid_request_error',
  code,
  message,
  param,
});
/** `text` with the character in its middle changed. */
function flipMiddle(text: string): string {
  const at = Math.floor(text.length / 2);
  return text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
}
const sealed = sealReasoning('rs_issued', ['Look at the file.']);
const tampered = flipMiddle(sealed);
const CANNOT_OPEN = 'Encrypted content could not be decrypted or parsed.';

/** A replayed reasoning item whose `encrypted_content` must be refused, and why. */
function replayed(name: string, id: string, encrypted: string, reason: string) {
  return {
    name,
    body: {
      model: 'm',
      input: [user('think first'), { type: 'reasoning', id, summary: [], encrypted_content: encrypted }],
    },
    error: invalid(
      'invalid_encrypted_content',
      `The encrypted content for item ${id} could not be verified. Reason: ${reason}`,
      null,
    ),
  };
}

/** Requests the API refuses whatever the transport, with the error each gets. */
const REFUSED: { name: string; body: Item; error: ApiError }[] = [
  {
    name: 'no model',
    body: { input: 'echo hi' },
    error: invalid('missing_required_parameter', "Missing required parameter: 'model'.", 'model'),
  },
  {
    name: 'no input and no previous_response_id',
    body: { model: 'm' },
    error: invalid('missing_required_parameter', "Missing required parameter: 'input'.", 'input'),
  },
  {
    name: 'input: [] and no previous_response_id',
    body: { model: 'm', input: [] },
    error: invalid(
      'empty_array',
      "Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'input',
    ),
  },
  {
    name: 'a function_call_output with a made-up call_id',
    body: {
      model: 'm',
      input: [user('echo hi'), { type: 'function_call_output', call_id: 'call_madeup', output: 'hi' }],
    },
    error: invalid(null, 'No tool call found for function call output with call_id call_madeup.', 'input'),
  },
  {
    name: 'a function_call_output before its call',
    body: {
      model: 'm',
      input: [
        user('echo hi'),
        { type: 'function_call_output', call_id: 'call_1', output: 'hi' },
        { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{}' },
      ],
    },
    error: invalid(null, 'No tool call found for function call output with call_id call_1.', 'input'),
  },
  {
    name: 'a function_call_output answering a custom_tool_call',
    body: {
      model: 'm',
      input: [
        user('patch it'),
        { type: 'custom_tool_call', call_id: 'call_c', name: 'apply_patch', input: '' },
        { type: 'function_call_output', call_id: 'call_c', output: 'done' },
      ],
    },
    error: invalid(null, 'No tool call found for function call output with call_id call_c.', 'input'),
  },
  {
    name: 'a custom_tool_call_output with a made-up call_id',
    body: {
      model: 'm',
      input: [user('patch it'), { type: 'custom_tool_call_output', call_id: 'call_nope', output: 'done' }],
    },
    error: invalid(null, 'No tool call found for custom tool call output with call_id call_nope.', 'input'),
  },
  replayed('a reasoning item with encrypted_content another server issued', 'rs_1', 'gAAAAABo9x==', CANNOT_OPEN),
  replayed('a reasoning item with tampered encrypted_content', 'rs_issued', tampered, CANNOT_OPEN),
  replayed(
    "a reasoning item replaying another item's encrypted_content",
    'rs_other',
    sealed,
    'Encrypted content item_id did not match the target item id.',
  ),
  {
    name: 'a reasoning item without an id and with malformed encrypted_content: named by the content, cut short',
    body: {
      model: 'm',
      input: [user('think first'), { type: 'reasoning', summary: [], encrypted_content: 'lw1.not base64 at all DQ==' }],
    },
    error: invalid(
      'invalid_encrypted_content',
      `The encrypted content lw1....DQ== could not be verified. Reason: ${CANNOT_OPEN}`,
      null,
    ),
  },
];

/** A reasoning item as the server sent it: its id, summary texts and encrypted_content. */
interface ReasoningOut {
  type: 'reasoning';
  id: string;
  summary: { type: string; text: string }[];
  encrypted_content: string;
  status: string;
}

describe('strict backend: what the API refuses, refused the same way', () => {
  const harness = useServer(() => ({ scenarios: [loadScenarioFile(ECHO_SCENARIO), THINK] }));
  const sockets: WsClient[] = [];
  const openWs = async () => {
    const client = await WsClient.open(harness.url);
    sockets.push(client);
    return client;
  };
  afterEach(() => sockets.splice(0).forEach((client) => client.close()));
  const responses = () => `${harness.url}/responses`;

  for (const { name, body, error } of REFUSED) {
    it(`HTTP: ${name} → 400 with the API's error body`, async () => {
      const reply = await post(responses(), { store: false, ...body });
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(JSON.parse(reply.text), { error });
      const streamed = await post(responses(), { store: false, stream: true, ...body });
      assert.equal(streamed.status, 400, 'refused before any stream, with stream: true too');
      assert.deepEqual(JSON.parse(streamed.text), { error });
    });

    it(`WebSocket: ${name} → an error event; the socket stays open and serves the next turn`, async () => {
      const client = await openWs();
      assert.deepEqual(await client.turn({ store: false, ...body }), [{ type: 'error', status: 400, error }]);
      assert.equal(
        finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status,
        'completed',
      );
      assert.equal(client.closeCode, undefined);
    });
  }

  it('background: true — HTTP keeps its own refusal, WebSocket mode the API’s', async () => {
    const body = { model: 'm', input: 'echo hi', background: true };
    const reply = await post(responses(), body);
    assert.equal(reply.status, 400);
    assert.deepEqual(JSON.parse(reply.text), {
      error: invalid('unsupported_parameter', 'loopwire-server does not run background responses.', 'background'),
    });
    const client = await openWs();
    assert.deepEqual(await client.turn(body), [
      {
        type: 'error',
        status: 400,
        error: invalid('unsupported_parameter', "'background' is not supported over WebSocket mode.", 'background'),
      },
    ]);
    assert.equal(finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' })).status, 'completed');
  });

  it('accepted: a generate:false warm-up with no input or input: [], and input: [] continuing a response', async () => {
    const client = await openWs();
    const bare = finalResponse(await client.turn({ model: 'm', store: false, generate: false }));
    assert.deepEqual(bare.output, []);
    const empty = finalResponse(await client.turn({ model: 'm', store: false, generate: false, input: [] }));
    assert.deepEqual(empty.output, []);
    const asked = finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' }));
    const continued = await client.turn({ model: 'm', store: false, previous_response_id: asked.id, input: [] });
    assert.equal(finalResponse(continued).status, 'completed');
    const stored = JSON.parse((await post(responses(), { model: 'm', input: 'echo hi' })).text) as { id: string };
    const overHttp = await post(responses(), { model: 'm', previous_response_id: stored.id, input: [] });
    assert.equal(overHttp.status, 200, overHttp.text);
  });

  it('accepted: prompt_cache_key, reasoning, text.verbosity and include, and a warm-up carrying a developer message', async () => {
    const fields = {
      model: 'm',
      store: false,
      prompt_cache_key: 'session-1',
      reasoning: { effort: 'low', summary: 'auto' },
      text: { verbosity: 'low' },
      include: ['reasoning.encrypted_content'],
    };
    const developer = { role: 'developer', content: 'You are a coding agent.' };
    const overHttp = await post(responses(), { ...fields, input: [developer, user('echo hi')] });
    assert.equal(overHttp.status, 200, overHttp.text);
    const client = await openWs();
    const warm = finalResponse(await client.turn({ ...fields, generate: false, input: [developer] }));
    assert.deepEqual(warm.output, []);
    const turn = await client.turn({ ...fields, previous_response_id: warm.id, input: [user('echo hi')] });
    assert.equal((finalResponse(turn).output[0] as { type: string }).type, 'function_call');
    assert.equal(finalResponse(turn).prompt_cache_key, 'session-1');
  });

  it('accepted: tool outputs answering calls earlier in the input, in the socket’s chain, or in the store', async () => {
    // Full resend: the call is in the same input.
    const full = await post(responses(), {
      model: 'm',
      store: false,
      input: [
        user('echo hi'),
        { type: 'function_call', call_id: 'call_mine', name: 'exec_command', arguments: '{"cmd":"echo hi"}' },
        { type: 'function_call_output', call_id: 'call_mine', output: 'hi\n' },
      ],
    });
    assert.equal(full.status, 200, full.text);
    // Chained on a socket: the call is in the cached response's output.
    const client = await openWs();
    const first = finalResponse(await client.turn({ model: 'm', store: false, input: 'patch it' }));
    const call = first.output[0] as { type: string; call_id: string };
    assert.equal(call.type, 'custom_tool_call');
    const answer = { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' };
    const chained = await client.turn({ model: 'm', store: false, previous_response_id: first.id, input: [answer] });
    assert.equal(finalResponse(chained).status, 'completed');
    // Chained over HTTP: the call is in the stored response the chain reloads.
    const stored = JSON.parse((await post(responses(), { model: 'm', input: 'echo hi' })).text) as {
      id: string;
      output: { call_id: string }[];
    };
    const callId = stored.output[0]?.call_id;
    const fromStore = await post(responses(), {
      model: 'm',
      previous_response_id: stored.id,
      input: [{ type: 'function_call_output', call_id: callId, output: 'hi\n' }],
    });
    assert.equal(fromStore.status, 200, fromStore.text);
  });

  it('WebSocket: a chained turn answering a call its parent never made is refused, and evicts that parent (§3.6)', async () => {
    const client = await openWs();
    const first = finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' }));
    const wrong = { type: 'function_call_output', call_id: 'call_not_in_chain', output: 'hi\n' };
    assert.deepEqual(await client.turn({ model: 'm', store: false, previous_response_id: first.id, input: [wrong] }), [
      {
        type: 'error',
        status: 400,
        error: invalid(null, 'No tool call found for function call output with call_id call_not_in_chain.', 'input'),
      },
    ]);
    const call = first.output[0] as { call_id: string };
    const retry = await client.turn({
      model: 'm',
      store: false,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hi\n' }],
    });
    assert.equal((retry[0]?.error as ApiError | undefined)?.code, 'previous_response_not_found');
    const resent = await client.turn({
      model: 'm',
      store: false,
      input: [
        user('echo hi'),
        ...(first.output as Item[]),
        { type: 'function_call_output', call_id: call.call_id, output: 'hi\n' },
      ],
    });
    assert.equal(finalResponse(resent).status, 'completed');
  });
});

describe('strict backend: reasoning items and their encrypted_content', () => {
  const harness = useServer(() => ({ scenarios: [THINK] }));
  const sockets: WsClient[] = [];
  const openWs = async () => {
    const client = await WsClient.open(harness.url);
    sockets.push(client);
    return client;
  };
  afterEach(() => sockets.splice(0).forEach((client) => client.close()));
  const responses = () => `${harness.url}/responses`;

  it('sealing is deterministic, bound to the id and summary, and opens only unaltered', () => {
    assert.equal(sealReasoning('rs_a', ['one', 'two']), sealReasoning('rs_a', ['one', 'two']));
    assert.notEqual(sealReasoning('rs_a', ['one']), sealReasoning('rs_b', ['one']));
    assert.notEqual(sealReasoning('rs_a', ['one']), sealReasoning('rs_a', ['one', '']));
    assert.match(sealed, /^lw1\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(openReasoning(sealed), { id: 'rs_issued', summary: ['Look at the file.'] });
    for (const bad of [
      tampered,
      sealed.slice(0, -1),
      `${sealed}A`,
      sealed.replace(/^lw1\./, 'lw2.'),
      `${sealed.slice(0, 10)}=${sealed.slice(11)}`,
      'lw1.',
      '',
      'gAAAAABo9x==',
    ])
      assert.equal(openReasoning(bad), undefined, bad);
  });

  it('a reasoning item streams its summary parts; encrypted_content is on the finished item only', async () => {
    const client = await openWs();
    const frames = await client.turn({ model: 'm', store: false, input: 'think first' });
    for (const frame of frames) parses(AnyServerEvent, frame);
    // The reasoning item's events, runs of deltas counted once.
    const ofReasoning = frames
      .filter((frame) => frame.output_index === 0)
      .map((frame) => frame.type)
      .filter((type, index, all) => type !== 'response.reasoning_summary_text.delta' || all[index - 1] !== type);
    const part = [
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
    ];
    assert.deepEqual(ofReasoning, ['response.output_item.added', ...part, ...part, 'response.output_item.done']);
    const added = frames.find((frame) => frame.type === 'response.output_item.added')?.item as Item;
    assert.equal(added.encrypted_content, undefined, 'not on output_item.added');
    const done = frames.find((frame) => frame.type === 'response.output_item.done')?.item as ReasoningOut;
    const final = finalResponse(frames).output[0] as ReasoningOut;
    assert.deepEqual(final, done);
    assert.equal(done.status, 'completed');
    assert.equal(done.encrypted_content, sealReasoning(done.id, ['Look at the file.', 'Then run it.']));
  });

  it('populated with or without include, over HTTP too (as the SDK says the API does)', async () => {
    for (const extra of [{}, { include: ['reasoning.encrypted_content'] }, { store: true }]) {
      const reply = await post(responses(), { model: 'm', store: false, input: 'think first', ...extra });
      assert.equal(reply.status, 200, reply.text);
      const item = (JSON.parse(reply.text) as { output: ReasoningOut[] }).output[0];
      assert.ok(item);
      assert.equal(item.encrypted_content, sealReasoning(item.id, ['Look at the file.', 'Then run it.']));
    }
  });

  it('replayed as issued: accepted on an HTTP full resend and on a new socket; tampered: refused', async () => {
    const first = JSON.parse(
      (
        await post(responses(), {
          model: 'm',
          store: false,
          include: ['reasoning.encrypted_content'],
          input: 'think first',
        })
      ).text,
    ) as { output: Item[] };
    const [reasoning, call] = first.output as [ReasoningOut, { call_id: string }];
    const history = (items: Item[]) => [
      user('think first'),
      ...items,
      { type: 'function_call_output', call_id: call.call_id, output: 'a.ts\n' },
    ];
    const again = await post(responses(), { model: 'm', store: false, input: history(first.output) });
    assert.equal(again.status, 200, again.text);
    assert.equal(
      (JSON.parse(again.text) as { output: { content: { text: string }[] }[] }).output[0]?.content[0]?.text,
      'Done thinking.',
    );
    // A client that strips the summary but keeps the id and content is fine: the content is what counts.
    const stripped = { ...reasoning, summary: [] };
    assert.equal((await post(responses(), { model: 'm', store: false, input: history([stripped, call]) })).status, 200);
    const client = await openWs();
    assert.equal(
      finalResponse(await client.turn({ model: 'm', store: false, input: history(first.output) })).status,
      'completed',
    );
    const forged = { ...reasoning, encrypted_content: flipMiddle(reasoning.encrypted_content) };
    const refused = await client.turn({ model: 'm', store: false, input: history([forged, call]) });
    assert.equal((refused[0] as WireEvent & { error: ApiError }).error.code, 'invalid_encrypted_content');
    assert.equal(
      finalResponse(await client.turn({ model: 'm', store: false, input: history(first.output) })).status,
      'completed',
    );
  });

  it('the official SDK replays reasoning over HTTP and ResponsesWS, and gets BadRequestError for an orphan output', async () => {
    const sdk = new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });
    const first = await sdk.responses.create({
      model: 'm',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: 'think first',
    });
    const reasoning = first.output[0];
    const call = first.output[1];
    assert.ok(reasoning?.type === 'reasoning' && call?.type === 'function_call');
    assert.equal(reasoning.encrypted_content, sealReasoning(reasoning.id, ['Look at the file.', 'Then run it.']));
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'think first' },
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { type: 'function_call_output', call_id: call.call_id, output: 'a.ts\n' },
    ];
    assert.equal((await sdk.responses.create({ model: 'm', store: false, input })).output_text, 'Done thinking.');
    const socket = new SdkSocket(harness.url);
    try {
      assert.equal((await socket.turn({ model: 'm', store: false, input })).status, 'completed');
      await assert.rejects(
        socket.turn({
          model: 'm',
          store: false,
          input: [
            { role: 'user', content: 'think first' },
            { type: 'function_call_output', call_id: 'call_x', output: '' },
          ],
        }),
        (error: Error) => {
          assert.match(error.message, /No tool call found for function call output with call_id call_x\./);
          return true;
        },
      );
      assert.equal((await socket.turn({ model: 'm', store: false, input })).status, 'completed', 'still usable');
    } finally {
      socket.close();
    }
    await assert.rejects(
      sdk.responses.create({
        model: 'm',
        input: [
          { role: 'user', content: 'think first' },
          { type: 'function_call_output', call_id: 'call_x', output: '' },
        ],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.status, 400);
        assert.equal(error.param, 'input');
        assert.equal(error.message, '400 No tool call found for function call output with call_id call_x.');
        return true;
      },
    );
  });
});
