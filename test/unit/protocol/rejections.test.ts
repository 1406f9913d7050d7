import * as assert from 'node:assert/strict';
import type * as z from 'zod';
import {
  AnyServerEvent,
  ClientEvent,
  ResponseCreateEvent,
  ResponseRequest,
  decodeJson,
  decodeWire,
  parseWire,
} from '../../../src/protocol';

/** A malformed shape, the field the error must name, and words its message must carry. */
interface Case {
  name: string;
  schema: z.ZodType;
  value: unknown;
  param: string | null;
  message: RegExp;
}

const completed = (usage: unknown) => ({
  type: 'response.completed',
  sequence_number: 7,
  response: { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'm', output: [], usage },
});

const cases: Case[] = [
  {
    name: 'a function_call_output without call_id',
    schema: ResponseRequest,
    value: {
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'function_call_output', output: '{}' },
      ],
    },
    param: 'input[1].call_id',
    message: /^Missing required parameter: 'input\[1\]\.call_id'\.$/,
  },
  {
    name: 'a model that is a number',
    schema: ResponseRequest,
    value: { model: 42, input: 'hi' },
    param: 'model',
    message: /^Invalid type for 'model': expected a string, but got an integer instead\.$/,
  },
  {
    name: 'a message of an unknown role',
    schema: ResponseRequest,
    value: { input: [{ role: 'robot', content: 'beep' }] },
    param: 'input[0].role',
    message: /'input\[0\]\.role'.*'user' or 'assistant' or 'system' or 'developer'.*'robot'/,
  },
  {
    name: 'a content part without its text',
    schema: ResponseRequest,
    value: { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text' }] }] },
    param: 'input[0].content[0].text',
    message: /Missing required parameter: 'input\[0\]\.content\[0\]\.text'/,
  },
  {
    name: 'a function tool without a name',
    schema: ResponseRequest,
    value: { tools: [{ type: 'function', parameters: {} }] },
    param: 'tools[0].name',
    message: /Missing required parameter: 'tools\[0\]\.name'/,
  },
  {
    name: 'a temperature out of range',
    schema: ResponseRequest,
    value: { model: 'm', temperature: 3.5 },
    param: 'temperature',
    message: /'temperature'/,
  },
  {
    name: 'a stream_id with a space',
    schema: ResponseCreateEvent,
    value: { type: 'response.create', model: 'm', stream_id: 'lane one' },
    param: 'stream_id',
    message: /'stream_id'.*1-256 characters/,
  },
  {
    name: 'an empty previous_response_id',
    schema: ClientEvent,
    value: { type: 'response.create', model: 'm', previous_response_id: '' },
    param: 'previous_response_id',
    message: /'previous_response_id'/,
  },
  {
    name: 'a client event of an unknown type',
    schema: ClientEvent,
    value: { type: 'response.cancel', response_id: 'resp_1' },
    param: 'type',
    message: /expected one of 'response\.create', 'response\.steer', .*but got 'response\.cancel'/,
  },
  {
    name: 'a frame that is not an object',
    schema: ClientEvent,
    value: 'response.create',
    param: null,
    message: /expected an object, but got a string/,
  },
  {
    name: 'a text delta without its delta',
    schema: AnyServerEvent,
    value: {
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
    },
    param: 'delta',
    message: /Missing required parameter: 'delta'/,
  },
  {
    name: 'an output_item.done whose function call has no arguments',
    schema: AnyServerEvent,
    value: {
      type: 'response.output_item.done',
      sequence_number: 5,
      output_index: 0,
      item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', status: 'completed' },
    },
    param: 'item.arguments',
    message: /Missing required parameter: 'item\.arguments'/,
  },
  {
    name: 'usage that caches more than its input',
    schema: AnyServerEvent,
    value: completed({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 11 },
      output_tokens: 1,
      total_tokens: 11,
    }),
    param: 'response.usage.input_tokens_details.cached_tokens',
    message: /cached_tokens cannot exceed input_tokens/,
  },
  {
    name: 'a negative sequence number',
    schema: AnyServerEvent,
    value: { type: 'response.in_progress', sequence_number: -1, response: completed(null).response },
    param: 'sequence_number',
    message: /'sequence_number'/,
  },
  {
    name: 'an error event of neither shape',
    schema: AnyServerEvent,
    value: { type: 'error', sequence_number: 3 },
    param: 'error',
    message: /Missing required parameter: 'error'/,
  },
];

describe('protocol: malformed shapes are refused with a message naming the field', () => {
  for (const testCase of cases) {
    it(testCase.name, () => {
      const result = parseWire(testCase.schema, testCase.value);
      assert.equal(result.ok, false, 'a malformed shape was accepted');
      if (result.ok) return;
      assert.equal(result.error.code, 'invalid_value');
      assert.equal(result.error.param, testCase.param);
      assert.match(result.error.message, testCase.message);
    });
  }

  it('a frame that is not JSON is an invalid_json error, never an exception', () => {
    const result = decodeWire(ClientEvent, '{"type": "response.create", "model": ');
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.code, 'invalid_json');
    assert.equal(result.error.param, null);
    assert.match(result.error.message, /could not parse the JSON/);
  });

  it('decodeJson accepts any JSON value and refuses truncated text', () => {
    assert.deepEqual(decodeJson('[1,{"a":null}]'), { ok: true, value: [1, { a: null }] });
    assert.equal(decodeJson('{"a":').ok, false);
    assert.equal(decodeJson('').ok, false);
  });
});
