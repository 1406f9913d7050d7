import * as assert from 'node:assert/strict';
import {
  AnyServerEvent,
  ClientEvent,
  CustomTool,
  ErrorEvent,
  FunctionCallOutput,
  InputItem,
  OutputItem,
  ServerEvent,
  TERMINAL_EVENT_TYPES,
  WsErrorEvent,
  connectionLimitReached,
  errorDetails,
  parseWire,
  previousResponseNotFound,
} from '../../../src/protocol';
import { readFrames, WS_FUNCTION_CALL } from '../support/wireFixture';
import { parses } from './parses';

// The examples of docs/protocol.md, section by section.

const frames = readFrames(WS_FUNCTION_CALL);

describe('protocol: the worked WebSocket exchange of §2.5', () => {
  it('every client frame is a client event and every other frame a modelled server event', () => {
    for (const frame of frames) {
      if (frame.type === 'response.create') parses(ClientEvent, frame);
      else parses(ServerEvent, frame);
    }
    assert.equal(frames.filter((frame) => frame.type === 'response.create').length, 2);
  });

  it('parsing loses nothing: each parsed frame equals the frame as sent', () => {
    for (const frame of frames) {
      const schema = frame.type === 'response.create' ? ClientEvent : AnyServerEvent;
      assert.deepEqual(parses(schema, frame), frame);
    }
  });

  it('each response counts its events from 0 and ends with exactly one terminal event', () => {
    const terminal = new Set<string>(TERMINAL_EVENT_TYPES);
    let expected = 0;
    let terminals = 0;
    for (const frame of frames) {
      if (frame.type === 'response.create') {
        expected = 0;
        continue;
      }
      assert.equal(frame.sequence_number, expected++);
      if (terminal.has(frame.type)) terminals++;
    }
    assert.equal(terminals, 2);
  });

  it('the chained turn sends only its new item, and usage counts the whole input with its cached part', () => {
    const second = parses(ClientEvent, frames[8]);
    assert.equal(second.type, 'response.create');
    if (second.type !== 'response.create') return;
    assert.equal(second.previous_response_id, 'resp_1');
    assert.ok(Array.isArray(second.input) && second.input.length === 1);
    parses(FunctionCallOutput, second.input[0]);

    const done = parses(ServerEvent, frames[frames.length - 1]);
    assert.equal(done.type, 'response.completed');
    if (done.type !== 'response.completed') return;
    const usage = done.response.usage;
    assert.ok(usage);
    const cached = usage.input_tokens_details?.cached_tokens ?? 0;
    assert.ok(cached > 0);
    assert.ok(usage.input_tokens > cached);
  });
});

describe('protocol: warm-up, lanes and client events (§1.4-1.6)', () => {
  it('a generate:false warm-up with instructions and tools only', () => {
    const warmUp = parses(ClientEvent, {
      type: 'response.create',
      model: 'gpt-5.5',
      generate: false,
      instructions: 'You are Loopwire.',
      tools: [{ type: 'custom', name: 'apply_patch' }],
      store: false,
    });
    assert.equal(warmUp.type === 'response.create' && warmUp.generate, false);
  });

  it('stream: true is tolerated (the official example sends it) and stream_id names a lane', () => {
    parses(ClientEvent, { type: 'response.create', model: 'm', input: 'hi', stream: true, stream_id: 'fix-1.a_b' });
    parses(ClientEvent, { type: 'response.create', model: 'm', stream_id: 'x'.repeat(256) });
    assert.equal(parseWire(ClientEvent, { type: 'response.create', stream_id: 'x'.repeat(257) }).ok, false);
  });

  it('response.steer, response.inject and Codex’s response.processed', () => {
    parses(ClientEvent, { type: 'response.steer', previous_response_id: 'resp_1', input: 'also check the tests' });
    parses(ClientEvent, {
      type: 'response.steer',
      previous_response_id: 'resp_1',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'also check the tests' }] }],
    });
    parses(ClientEvent, {
      type: 'response.inject',
      response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }],
    });
    parses(ClientEvent, { type: 'response.processed', response_id: 'resp_1' });
  });

  it('events on a named lane echo stream_id', () => {
    const event = parses(ServerEvent, {
      type: 'response.output_text.delta',
      sequence_number: 4,
      stream_id: 'fix-1',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'hi',
    });
    assert.equal(event.stream_id, 'fix-1');
  });
});

describe('protocol: the other streamed events of §2.1 and §2.6', () => {
  const ref = { item_id: 'rs_1', output_index: 0 };
  const examples: Record<string, unknown>[] = [
    { type: 'response.queued', response: { id: 'r', object: 'response', created_at: 1, status: 'queued', model: 'm' } },
    {
      type: 'response.incomplete',
      response: {
        id: 'r',
        object: 'response',
        created_at: 1,
        status: 'incomplete',
        model: 'm',
        incomplete_details: { reason: 'max_output_tokens' },
      },
    },
    {
      type: 'response.failed',
      response: {
        id: 'r',
        object: 'response',
        created_at: 1,
        status: 'failed',
        model: 'm',
        error: { code: 'server_error', message: 'The server had an error.' },
      },
    },
    { type: 'response.refusal.delta', ...ref, content_index: 0, delta: 'I can' },
    { type: 'response.refusal.done', ...ref, content_index: 0, refusal: "I can't help with that." },
    {
      type: 'response.output_text.annotation.added',
      ...ref,
      content_index: 0,
      annotation_index: 0,
      annotation: { type: 'url_citation', url: 'https://example.com', start_index: 0, end_index: 4, title: 'x' },
    },
    {
      type: 'response.reasoning_summary_part.added',
      ...ref,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    },
    { type: 'response.reasoning_summary_text.delta', ...ref, summary_index: 0, delta: 'Looking' },
    { type: 'response.reasoning_summary_text.done', ...ref, summary_index: 0, text: 'Looking at the file.' },
    {
      type: 'response.reasoning_summary_part.done',
      ...ref,
      summary_index: 0,
      part: { type: 'summary_text', text: 'Looking at the file.' },
    },
    { type: 'response.reasoning_text.delta', ...ref, content_index: 0, delta: 'Hmm' },
    { type: 'response.reasoning_text.done', ...ref, content_index: 0, text: 'Hmm.' },
    { type: 'response.steer.accepted', steer: { id: 'steer_1', previous_response_id: 'resp_1' } },
    {
      type: 'response.steer.pending',
      reason: 'waiting_for_required_input',
      required_input: [{ type: 'function_call_output', call_id: 'call_1', name: 'exec_command' }],
      steer: { id: 'steer_1', previous_response_id: 'resp_1' },
    },
    {
      type: 'response.steer.failed',
      error: { code: 'steering_not_supported', message: 'Steering is not supported.', type: 'invalid_request_error' },
      steer: { input: 'more', previous_response_id: 'resp_1' },
    },
    { type: 'response.inject.created', response_id: 'resp_1' },
    {
      type: 'response.inject.failed',
      response_id: 'resp_1',
      error: { code: 'response_already_completed', message: 'The response has completed.' },
      input: [],
    },
  ];
  for (const [index, example] of examples.entries()) {
    it(`${String(example.type)} parses as a modelled event`, () => {
      const event = { ...example, sequence_number: index };
      assert.deepEqual(parses(ServerEvent, event), event);
    });
  }
});

describe('protocol: freeform tools (§10)', () => {
  it('custom tool definitions, with text and grammar formats', () => {
    parses(CustomTool, { type: 'custom', name: 'apply_patch', description: 'Edit files.', format: { type: 'text' } });
    parses(CustomTool, {
      type: 'custom',
      name: 'apply_patch',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch" /(.|\\n)*/' },
    });
    assert.equal(
      parseWire(CustomTool, { type: 'custom', name: 'x', format: { type: 'grammar', syntax: 'ebnf', definition: '' } })
        .ok,
      false,
    );
  });

  it('a custom_tool_call streamed as input deltas, and its output in the next request', () => {
    const item = {
      type: 'custom_tool_call',
      id: 'ctc_1',
      call_id: 'call_1',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch\n',
      status: 'completed',
    };
    parses(OutputItem, item);
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { ...item, input: '', status: 'in_progress' } },
      { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta: '*** Begin Patch\n' },
      { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta: '*** End Patch\n' },
      { type: 'response.custom_tool_call_input.done', item_id: 'ctc_1', output_index: 0, input: item.input },
      { type: 'response.output_item.done', output_index: 0, item },
    ];
    for (const [index, event] of events.entries()) parses(ServerEvent, { ...event, sequence_number: index + 2 });
    parses(InputItem, { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done.' });
    parses(InputItem, {
      type: 'custom_tool_call_output',
      call_id: 'call_1',
      output: [{ type: 'input_text', text: 'Done.' }],
    });
  });
});

describe('protocol: errors (§3.3, §4.1, §4.2)', () => {
  const notFound = {
    type: 'error',
    status: 400,
    error: {
      type: 'invalid_request_error',
      code: 'previous_response_not_found',
      message: "Previous response with id 'resp_abc' not found.",
      param: 'previous_response_id',
    },
  };

  it('previousResponseNotFound builds the exact frame of §3.3', () => {
    assert.deepEqual(previousResponseNotFound('resp_abc'), notFound);
    assert.deepEqual(parses(WsErrorEvent, notFound), notFound);
  });

  it('the nested and the flat error shapes both parse, and errorDetails reads either', () => {
    const nested = parses(ErrorEvent, notFound);
    assert.deepEqual(errorDetails(nested), {
      status: 400,
      type: 'invalid_request_error',
      code: 'previous_response_not_found',
      message: "Previous response with id 'resp_abc' not found.",
      param: 'previous_response_id',
    });
    const flat = parses(ErrorEvent, {
      type: 'error',
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
      sequence_number: 12,
    });
    assert.deepEqual(errorDetails(flat), {
      status: undefined,
      type: undefined,
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
    });
  });

  it('a rate-limit error with headers, top level and nested (the ChatGPT backend)', () => {
    parses(ServerEvent, {
      type: 'error',
      status: 429,
      error: {
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: 'Rate limit reached.',
        param: null,
        headers: { 'retry-after': '2' },
      },
      headers: { 'x-codex-primary-used-percent': '100.0' },
    });
  });

  it('connectionLimitReached uses the wording of Codex’s fixture', () => {
    const event = connectionLimitReached();
    assert.equal(event.status, 400);
    assert.equal(event.error.code, 'websocket_connection_limit_reached');
    assert.equal(
      event.error.message,
      'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.',
    );
    parses(WsErrorEvent, event);
  });
});
