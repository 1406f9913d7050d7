import * as assert from 'node:assert/strict';
import { loadScenarioFile } from '../../../src/server';
import { ECHO_SCENARIO, finalResponse, post } from './support/harness';
import {
  type ApiError,
  type Item,
  THINK,
  invalid,
  sealed,
  tampered,
  user,
  useStrictServer,
} from './support/strictFixtures';

// The backend is as strict as the API on what the API refuses, always (there is no lenient mode): every
// suite's client runs against these checks. Each refusal has the API's shape over HTTP (status and body)
// and over WebSocket (an `error` event, the socket left open and usable).

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
  {
    name: 'a function_call with no output after it',
    body: {
      model: 'm',
      input: [
        user('echo hi'),
        { type: 'function_call', call_id: 'call_open', name: 'exec_command', arguments: '{"cmd":"echo hi"}' },
      ],
    },
    error: invalid(null, 'No tool output found for function call call_open.', 'input'),
  },
  {
    name: 'a custom_tool_call with no output after it, its neighbour answered',
    body: {
      model: 'm',
      input: [
        user('patch it'),
        { type: 'function_call', call_id: 'call_done', name: 'exec_command', arguments: '{"cmd":"ls"}' },
        {
          type: 'custom_tool_call',
          call_id: 'call_patch',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** End Patch',
        },
        { type: 'function_call_output', call_id: 'call_done', output: 'a.txt\n' },
      ],
    },
    error: invalid(null, 'No tool output found for custom tool call call_patch.', 'input'),
  },
];

describe('strict backend: what the API refuses, refused the same way', () => {
  const { openWs, responses } = useStrictServer(() => [loadScenarioFile(ECHO_SCENARIO), THINK]);

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
    // A response that ended in a message (one that ended in a call needs its output: refused below).
    const asked = finalResponse(await client.turn({ model: 'm', store: false, input: 'say hello' }));
    const continued = await client.turn({ model: 'm', store: false, previous_response_id: asked.id, input: [] });
    assert.equal(finalResponse(continued).status, 'completed');
    const stored = JSON.parse((await post(responses(), { model: 'm', input: 'say hello' })).text) as { id: string };
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

  it('a turn continuing a response that ended in calls must answer them: refused on a socket and over HTTP', async () => {
    const client = await openWs();
    const calling = async () => {
      const response = finalResponse(await client.turn({ model: 'm', store: false, input: 'echo hi' }));
      const call = response.output[0] as { type: string; call_id: string };
      assert.equal(call.type, 'function_call');
      return { id: response.id, callId: call.call_id };
    };
    // Each refusal evicts the response it continued (§3.6): a new one for each case.
    for (const input of [[], [user('go on')]]) {
      const first = await calling();
      assert.deepEqual(await client.turn({ model: 'm', store: false, previous_response_id: first.id, input }), [
        {
          type: 'error',
          status: 400,
          error: invalid(null, `No tool output found for function call ${first.callId}.`, 'input'),
        },
      ]);
    }
    // A warm-up generates nothing: it may carry the context as it is.
    const warm = await client.turn({
      model: 'm',
      store: false,
      generate: false,
      previous_response_id: (await calling()).id,
      input: [],
    });
    assert.equal(finalResponse(warm).status, 'completed');
    const stored = JSON.parse((await post(responses(), { model: 'm', input: 'echo hi' })).text) as {
      id: string;
      output: { call_id: string }[];
    };
    const overHttp = await post(responses(), { model: 'm', previous_response_id: stored.id, input: [user('go on')] });
    assert.equal(overHttp.status, 400, overHttp.text);
    assert.deepEqual(JSON.parse(overHttp.text), {
      error: invalid(null, `No tool output found for function call ${stored.output[0]?.call_id}.`, 'input'),
    });
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
