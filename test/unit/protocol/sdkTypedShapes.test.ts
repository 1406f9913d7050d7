import * as assert from 'node:assert/strict';
import type * as Sdk from 'openai/resources/responses/responses';
import {
  ClientEvent,
  InputItem,
  OutputItem,
  ResponseObject,
  ResponseRequest,
  ServerEvent,
  Tool,
} from '../../../src/protocol';
import { parses } from './parses';

// Shapes typed by the official SDK (openai 7.55): `satisfies` makes the compiler prove each one is what the
// SDK sends or expects, and the test proves our schemas take it, field for field.

const tools = [
  {
    type: 'function',
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    strict: true,
  },
  { type: 'custom', name: 'apply_patch', description: 'Edit files.', format: { type: 'text' } },
] satisfies Sdk.Tool[];

const inputItems = [
  { role: 'user', content: 'Fix the failing test.' },
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
  {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,AA==' }],
  },
  {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Reading first.' }],
    encrypted_content: 'gAAA',
  },
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'read_file',
    arguments: '{"path":"a.ts"}',
    status: 'completed',
  },
  { type: 'function_call_output', call_id: 'call_1', output: 'export const a = 1;\n' },
  {
    type: 'custom_tool_call',
    id: 'ctc_1',
    call_id: 'call_2',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** End Patch',
  },
  { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'Done.' }] },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Fixed.', annotations: [] }],
  },
] satisfies Sdk.ResponseInputItem[];

const request = {
  model: 'gpt-5.5',
  input: inputItems,
  instructions: 'You are Loopwire.',
  tools,
  tool_choice: { type: 'function', name: 'read_file' },
  parallel_tool_calls: true,
  previous_response_id: null,
  store: false,
  include: ['reasoning.encrypted_content'],
  reasoning: { effort: 'low', summary: 'auto' },
  text: { format: { type: 'text' }, verbosity: 'low' },
  prompt_cache_key: 'session-1',
  metadata: { session: 's1' },
  max_output_tokens: 4096,
  truncation: 'disabled',
  temperature: 1,
  top_p: 1,
  service_tier: 'auto',
  user: 'u1',
} satisfies Sdk.ResponseCreateParamsNonStreaming;

const functionCallItem = {
  type: 'function_call',
  id: 'fc_2',
  call_id: 'call_3',
  name: 'read_file',
  arguments: '{}',
  status: 'in_progress',
} satisfies Sdk.ResponseFunctionToolCall;
const reasoningItem = {
  type: 'reasoning',
  id: 'rs_2',
  summary: [],
  status: 'completed',
} satisfies Sdk.ResponseReasoningItem;
const outputItems = [
  {
    type: 'message',
    id: 'msg_2',
    role: 'assistant',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'Done.', annotations: [] },
      { type: 'refusal', refusal: 'Not that part.' },
    ],
  },
  functionCallItem,
  { type: 'custom_tool_call', id: 'ctc_2', call_id: 'call_4', name: 'apply_patch', input: '' },
  reasoningItem,
] satisfies Sdk.ResponseOutputItem[];

function sdkResponse(status: Sdk.ResponseStatus, output: Sdk.ResponseOutputItem[]): Sdk.Response {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1764694800,
    status,
    model: 'gpt-5.5',
    output,
    output_text: '',
    access_programs: null,
    error: null,
    incomplete_details: null,
    instructions: 'You are Loopwire.',
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    top_p: 1,
    tool_choice: 'auto',
    tools,
    usage: {
      input_tokens: 1200,
      input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 1230,
    },
  };
}

const serverEvents = [
  { type: 'response.created', sequence_number: 0, response: sdkResponse('in_progress', []) },
  { type: 'response.in_progress', sequence_number: 1, response: sdkResponse('in_progress', []) },
  { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: functionCallItem },
  { type: 'response.function_call_arguments.delta', sequence_number: 3, item_id: 'fc_2', output_index: 0, delta: '{}' },
  {
    type: 'response.function_call_arguments.done',
    sequence_number: 4,
    item_id: 'fc_2',
    output_index: 0,
    arguments: '{}',
  },
  {
    type: 'response.content_part.added',
    sequence_number: 5,
    item_id: 'msg_2',
    output_index: 1,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  },
  {
    type: 'response.output_text.delta',
    sequence_number: 6,
    item_id: 'msg_2',
    output_index: 1,
    content_index: 0,
    delta: 'Done.',
    logprobs: [],
  },
  {
    type: 'response.output_text.done',
    sequence_number: 7,
    item_id: 'msg_2',
    output_index: 1,
    content_index: 0,
    text: 'Done.',
    logprobs: [],
  },
  {
    type: 'response.custom_tool_call_input.delta',
    sequence_number: 8,
    item_id: 'ctc_2',
    output_index: 2,
    delta: '*** ',
  },
  {
    type: 'response.custom_tool_call_input.done',
    sequence_number: 9,
    item_id: 'ctc_2',
    output_index: 2,
    input: '*** ',
  },
  {
    type: 'response.reasoning_summary_text.delta',
    sequence_number: 10,
    item_id: 'rs_2',
    output_index: 3,
    summary_index: 0,
    delta: 'Hm',
  },
  { type: 'response.output_item.done', sequence_number: 11, output_index: 3, item: reasoningItem },
  { type: 'response.completed', sequence_number: 12, response: sdkResponse('completed', outputItems) },
  { type: 'error', code: 'server_error', message: 'Boom.', param: null, sequence_number: 13 },
  {
    type: 'error',
    status: 400,
    error: {
      type: 'invalid_request_error',
      code: 'previous_response_not_found',
      message: 'x',
      param: 'previous_response_id',
    },
  },
  { type: 'response.steer.accepted', sequence_number: 14, steer: { id: 'st_1', previous_response_id: 'resp_1' } },
] satisfies Sdk.ResponsesServerEvent[];

describe('protocol: shapes typed by the openai SDK parse', () => {
  it('a request with every modelled field (the POST body)', () => {
    assert.deepEqual(parses(ResponseRequest, request), request);
  });

  it('every kind of input item', () => {
    for (const item of inputItems) assert.deepEqual(parses(InputItem, item), item);
  });

  it('every kind of output item, and the Response object around them', () => {
    for (const item of outputItems) assert.deepEqual(parses(OutputItem, item), item);
    const response = sdkResponse('completed', outputItems);
    assert.deepEqual(parses(ResponseObject, response), response);
  });

  it('function and custom tools', () => {
    for (const tool of tools) assert.deepEqual(parses(Tool, tool), tool);
  });

  it('the server events of a stream, and both error shapes', () => {
    for (const event of serverEvents) assert.deepEqual(parses(ServerEvent, event), event);
  });

  it('the client events: response.create and response.steer', () => {
    const events = [
      { type: 'response.create', ...request, generate: false, stream_id: 'lane-1' },
      { type: 'response.steer', previous_response_id: 'resp_1', input: 'Also run the tests.' },
    ] satisfies Sdk.ResponsesClientEvent[];
    for (const event of events) assert.deepEqual(parses(ClientEvent, event), event);
  });
});
