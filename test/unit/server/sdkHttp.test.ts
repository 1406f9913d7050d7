import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ResponseObject, ResponseStreamEvent } from '../../../src/protocol';
import { startServer } from '../../../src/server';
import { parses } from '../protocol/parses';
import { post, useServer } from './support/harness';

// HTTP+SSE with the official SDK as the client: what it sends is served, what we send it assembles.

describe('server over HTTP: the openai SDK as client', () => {
  const harness = useServer();
  const client = () => new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });

  it('responses.create (JSON): the scenario step 1 function call, with ids the server assigned', async () => {
    const response = await client().responses.create({ model: 'gpt-5.5', input: 'Please run: echo hi' });
    parses(ResponseObject, response);
    assert.equal(response.status, 'completed');
    assert.equal(response.output.length, 1);
    const call = response.output[0];
    assert.ok(call?.type === 'function_call');
    assert.equal(call.name, 'exec_command');
    assert.deepEqual(JSON.parse(call.arguments), { cmd: 'echo hi' });
    assert.match(call.call_id, /^call_[0-9a-f]{24}$/);
    assert.match(response.id, /^resp_[0-9a-f]{24}$/);
  });

  it('responses.stream (SSE): events in canonical order, increasing sequence numbers, the SDK assembles the answer', async () => {
    const history = [
      { role: 'user' as const, content: 'echo hi' },
      { type: 'function_call' as const, call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"echo hi"}' },
      { type: 'function_call_output' as const, call_id: 'call_1', output: 'hi\n' },
    ];
    const stream = client().responses.stream({ model: 'gpt-5.5', input: history, store: false });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();
    assert.equal(final.output_text, 'It printed: hi');
    for (const event of events) parses(ResponseStreamEvent, event);
    assert.deepEqual(
      events.map((event) => event.sequence_number),
      events.map((_, index) => index),
    );
    const types = events.map((event) => event.type).filter((type) => type !== 'response.output_text.delta');
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = events.filter(
      (event): event is OpenAI.Responses.ResponseTextDeltaEvent => event.type === 'response.output_text.delta',
    );
    assert.equal(deltas.map((event) => event.delta).join(''), 'It printed: hi');
  });

  it('full history over HTTP plays the scenario the same as chaining: step k from the context itself', async () => {
    const first = await client().responses.create({ model: 'm', input: 'echo hi', store: false });
    // Output items go back as input (the SDK types them apart; the wire carries them the same).
    const echoed = (items: OpenAI.Responses.ResponseOutputItem[]) => items as OpenAI.Responses.ResponseInputItem[];
    const call = first.output[0];
    assert.ok(call?.type === 'function_call');
    const second = await client().responses.create({
      model: 'm',
      store: false,
      input: [
        { role: 'user', content: 'echo hi' },
        ...echoed(first.output),
        { type: 'function_call_output', call_id: call.call_id, output: 'hi' },
      ],
    });
    assert.equal(second.output_text, 'It printed: hi');
    const third = await client().responses.create({
      model: 'm',
      store: false,
      input: [
        { role: 'user', content: 'echo hi' },
        ...echoed(first.output),
        { type: 'function_call_output', call_id: call.call_id, output: 'hi' },
        ...echoed(second.output),
      ],
    });
    assert.equal(third.output_text, "loopwire-server: scenario 'echo' has no step 3 (it has 2).");
  });

  it('a prompt no scenario matches gets a short honest answer, not an error', async () => {
    const response = await client().responses.create({ model: 'm', input: 'write me a sonnet' });
    assert.match(
      response.output_text,
      /^Loopwire's offline model knows only the demo's tasks: no scenario matches this prompt/,
    );
  });

  it('an unknown previous_response_id is a 400 with the §3.3 error body; the SDK raises BadRequestError', async () => {
    await assert.rejects(
      client().responses.create({ model: 'm', input: 'echo hi', previous_response_id: 'resp_nope' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.status, 400);
        assert.deepEqual(error.error, {
          type: 'invalid_request_error',
          code: 'previous_response_not_found',
          message: "Previous response with id 'resp_nope' not found.",
          param: 'previous_response_id',
        });
        return true;
      },
    );
  });

  it('a Codex-style request: client item ids, client_metadata, custom and unknown tool types, no instructions', async () => {
    const body = {
      model: 'gpt-5.5',
      instructions: null,
      input: [
        {
          type: 'message',
          id: 'msg_8f3c',
          role: 'developer',
          content: [{ type: 'input_text', text: 'You are Codex.' }],
        },
        { type: 'message', id: 'msg_9a1b', role: 'user', content: [{ type: 'input_text', text: 'Run `echo hi`' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'exec_command',
          parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
          strict: false,
        },
        { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
        { type: 'tool_search', description: 'an unknown tool type, kept as given' },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: '0199a-session',
      client_metadata: { turn_id: '1', 'x-codex-turn-metadata': '{}' },
    };
    const reply = await post(`${harness.url}/responses`, body, {
      authorization: 'Bearer sk-local',
      'openai-beta': 'responses=v1',
    });
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = reply.text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map(
        (block) =>
          JSON.parse(
            block
              .split('\n')
              .find((line) => line.startsWith('data: '))
              ?.slice(6) ?? 'null',
          ) as { type: string; item?: { name?: string } },
      );
    const done = events.filter((event) => event.type === 'response.output_item.done');
    assert.equal(done.length, 1);
    assert.equal(done[0]?.item?.name, 'exec_command');
    assert.equal(events.at(-1)?.type, 'response.completed');
  });

  it('a freeform (custom) tool call streams its input as response.custom_tool_call_input.delta', async () => {
    await harness.server.close();
    harness.server = await startServer({
      // Slow enough that ~20 tokens cannot all fall due at once, even on a loaded machine (at 2,000 tok/s a
      // 5 ms stall let them come as three deltas).
      tps: 200,
      prefillUsPerToken: 0,
      scenarios: [
        {
          scenarios: [
            {
              name: 'patch',
              match: 'patch it',
              steps: [
                {
                  output: [
                    {
                      type: 'custom_tool_call',
                      name: 'apply_patch',
                      input: '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch',
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const events: { type: string; delta?: string; input?: string; item?: { type: string; input?: string } }[] = [];
    const sdk = new OpenAI({ apiKey: 'sk-local', baseURL: harness.server.url, maxRetries: 0 });
    for await (const event of await sdk.responses.create({ model: 'm', input: 'patch it', stream: true }))
      events.push(event as (typeof events)[number]);
    const deltas = events.filter((event) => event.type === 'response.custom_tool_call_input.delta');
    assert.ok(deltas.length > 3, `input streamed as several deltas, got ${deltas.length}`);
    const input = '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch';
    assert.equal(deltas.map((event) => event.delta).join(''), input);
    assert.equal(events.find((event) => event.type === 'response.custom_tool_call_input.done')?.input, input);
    const added = events.find((event) => event.type === 'response.output_item.added');
    assert.deepEqual([added?.item?.type, added?.item?.input], ['custom_tool_call', '']);
  });
});
