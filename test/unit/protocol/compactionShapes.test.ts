import * as assert from 'node:assert/strict';
import type * as Sdk from 'openai/resources/responses/responses';
import {
  ClientEvent,
  CompactRequest,
  CompactedResponse,
  Compaction,
  InputItem,
  OutputItem,
  ResponseObject,
  ResponseRequest,
  ServerEvent,
  contextLengthExceeded,
  parseWire,
} from '../../../src/protocol';
import { parses } from './parses';

// The compaction shapes (docs/protocol.md §3.7), typed by the official SDK (openai 7.55): `satisfies` makes the
// compiler prove each is what the SDK sends or expects, and the test proves our schemas take it.

const item = {
  type: 'compaction',
  id: 'cmp_0123456789abcdef01234567',
  encrypted_content: 'lwc1.opaque',
} satisfies Sdk.ResponseCompactionItem;
const param = { type: 'compaction', encrypted_content: 'lwc1.opaque' } satisfies Sdk.ResponseCompactionItemParam;

const create = {
  model: 'gpt-5.5',
  input: [{ role: 'user', content: 'Fix the failing test.' }, param],
  store: false,
  context_management: [{ type: 'compaction', compact_threshold: 200_000 }],
} satisfies Sdk.ResponseCreateParamsNonStreaming;

const compactParams = {
  model: 'gpt-5.5',
  input: [{ role: 'user', content: 'Fix the failing test.' }],
  instructions: 'You are Loopwire.',
  previous_response_id: null,
} satisfies Sdk.ResponseCompactParams;

const compacted = {
  id: 'resp_1',
  object: 'response.compaction',
  created_at: 1764694800,
  output: [item],
  usage: {
    input_tokens: 42_897,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: 4_290,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 47_187,
  },
} satisfies Sdk.CompactedResponse;

describe('protocol: compaction shapes', () => {
  it('the compaction item, as output and as input, in both unions', () => {
    assert.deepEqual(parses(Compaction, item), item);
    assert.deepEqual(parses(OutputItem, item), item);
    assert.deepEqual(parses(InputItem, param), param);
    assert.equal(parseWire(InputItem, { type: 'compaction', id: 'cmp_1' }).ok, false, 'encrypted_content is required');
  });

  it('context_management on response.create, over HTTP and WebSocket', () => {
    const request = parses(ResponseRequest, create);
    assert.deepEqual(request.context_management, [{ type: 'compaction', compact_threshold: 200_000 }]);
    parses(ClientEvent, { type: 'response.create', ...create });
    parses(ResponseRequest, { model: 'm', context_management: [{ type: 'compaction' }] });
    parses(ResponseRequest, { model: 'm', context_management: null });
    const zero = parseWire(ResponseRequest, {
      model: 'm',
      context_management: [{ type: 'compaction', compact_threshold: 0 }],
    });
    assert.ok(!zero.ok && zero.error.param === 'context_management[0].compact_threshold');
  });

  it('a response whose output begins with a compaction item, and its streamed events', () => {
    const response = parses(ResponseObject, {
      id: 'resp_2',
      object: 'response',
      created_at: 1764694800,
      status: 'completed',
      model: 'gpt-5.5',
      output: [item, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '{}' }],
    });
    assert.equal(response.output?.[0]?.type, 'compaction');
    for (const type of ['response.output_item.added', 'response.output_item.done'] as const)
      parses(ServerEvent, { type, sequence_number: 2, output_index: 0, item });
  });

  it('POST /v1/responses/compact: the request and the response.compaction object', () => {
    assert.deepEqual(parses(CompactRequest, compactParams), compactParams);
    parses(CompactRequest, { model: 'm', previous_response_id: 'resp_1' });
    const withMessages = {
      ...compacted,
      output: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] }, item],
    };
    assert.deepEqual(parses(CompactedResponse, withMessages), withMessages);
    assert.equal(parseWire(CompactedResponse, { ...compacted, object: 'response' }).ok, false);
    assert.equal(parseWire(CompactedResponse, { ...compacted, usage: undefined }).ok, false, 'usage is required');
  });

  it('context_length_exceeded: the error the window refuses with', () => {
    assert.deepEqual(contextLengthExceeded(), {
      type: 'error',
      status: 400,
      error: {
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        param: 'input',
      },
    });
  });
});
