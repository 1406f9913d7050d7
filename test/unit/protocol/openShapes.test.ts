import * as assert from 'node:assert/strict';
import {
  AnyInputItem,
  AnyOutputItem,
  AnyServerEvent,
  AnyTool,
  ClientEvent,
  InputItem,
  ResponseObject,
  ResponseRequest,
  ServerEvent,
  parseWire,
} from '../../../src/protocol';
import { parses } from './parses';

// "Fields the schemas don't model are accepted and passed over (newer clients send more), never a crash",
// while a shape this version does model is still held to its schema.

describe('protocol: what the schemas do not model is kept as given', () => {
  it('unknown fields survive at every level of a request', () => {
    const request = {
      model: 'gpt-5.5',
      prompt_cache_options: { prewarm: false },
      context_management: [{ type: 'compaction', compact_threshold: 0.8 }],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi', prompt_cache_breakpoint: {} }] },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{}', namespace: 'fs' },
      ],
      tools: [{ type: 'function', name: 'read_file', parameters: {}, strict: true, defer_loading: true }],
    };
    assert.deepEqual(parses(ResponseRequest, request), request);
  });

  it('items, tools, output items and server events of types not modelled are kept as given', () => {
    const toolSearch = { type: 'tool_search_call', id: 'ts_1', query: 'shell', status: 'completed' };
    assert.deepEqual(parses(AnyInputItem, toolSearch), toolSearch);
    assert.equal(parseWire(InputItem, toolSearch).ok, false, 'the closed union must not accept it');

    const webSearch = { type: 'web_search', search_context_size: 'low' };
    assert.deepEqual(parses(AnyTool, webSearch), webSearch);

    const imageCall = { type: 'image_generation_call', id: 'ig_1', status: 'generating', result: null };
    assert.deepEqual(parses(AnyOutputItem, imageCall), imageCall);

    const searching = {
      type: 'response.web_search_call.searching',
      sequence_number: 3,
      item_id: 'ws_1',
      output_index: 0,
    };
    assert.deepEqual(parses(AnyServerEvent, searching), searching);
    assert.equal(parseWire(ServerEvent, searching).ok, false, 'the modelled union must not accept it');
  });

  it('a modelled type that is malformed is not passed over as an unknown one', () => {
    const broken = { type: 'function_call', name: 'read_file', arguments: '{}' };
    const result = parseWire(AnyInputItem, broken);
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.error.param, 'call_id');
    assert.equal(parseWire(AnyServerEvent, { type: 'response.completed', sequence_number: 1 }).ok, false);
    assert.equal(parseWire(AnyTool, { type: 'custom' }).ok, false);
  });

  it('an object with no string type is never taken for an unknown one', () => {
    assert.equal(parseWire(AnyServerEvent, { sequence_number: 1 }).ok, false);
    assert.equal(parseWire(AnyServerEvent, { type: 7 }).ok, false);
    assert.equal(parseWire(AnyInputItem, { id: 'msg_1' }).ok, false);
  });

  it('messages: type may be left out, content a string or parts, the model’s own parts replayed', () => {
    parses(InputItem, { role: 'developer', content: 'Be brief.' });
    parses(InputItem, {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
    });
    parses(InputItem, { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AA==' }] });
  });

  it('a Response whose output was left out of a WebSocket terminal event (§2.6)', () => {
    parses(ResponseObject, { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'm' });
  });

  it('a Codex-style turn: client ids, client_metadata, custom and unknown tools, no instructions', () => {
    const turn = {
      type: 'response.create',
      model: 'gpt-5.5',
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: '019a0b6c-session',
      client_metadata: { 'x-codex-turn-metadata': '{"turn_id":"t1"}' },
      parallel_tool_calls: false,
      reasoning: { effort: 'medium', summary: 'auto' },
      text: { verbosity: 'low' },
      tool_choice: 'auto',
      previous_response_id: 'resp_warm',
      tools: [
        {
          type: 'function',
          name: 'exec_command',
          description: 'Runs a command.',
          parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
          strict: false,
        },
        { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
        { type: 'tool_search', execution: 'client', description: 'Find tools.' },
      ],
      input: [
        {
          type: 'message',
          id: 'msg_0190aa',
          role: 'developer',
          content: [{ type: 'input_text', text: 'You are Codex.' }],
        },
        { type: 'message', id: 'msg_0190ab', role: 'user', content: [{ type: 'input_text', text: 'echo hi' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB…' },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'exec_command',
          arguments: '{"cmd":"echo hi"}',
          status: 'completed',
        },
        { type: 'function_call_output', id: 'fco_0190ac', call_id: 'call_1', output: 'hi\n' },
      ],
    };
    assert.deepEqual(parses(ClientEvent, turn), turn);
  });
});
