import * as assert from 'node:assert/strict';
import type * as Sdk from 'openai/resources/responses/responses';
import type * as z from 'zod';
import type { ResponseSteerErrorCode, SteerRequiredInput } from '../../../src/protocol';
import {
  AnyServerEvent,
  ClientEvent,
  ResponseSteerAcceptedEvent,
  ResponseSteerEvent,
  ResponseSteerFailedEvent,
  ResponseSteerInput,
  ResponseSteerPendingEvent,
  SERVER_EVENT_TYPES,
  SteerErrorCode,
  parseWire,
} from '../../../src/protocol';
import { parses } from './parses';

// The steering shapes against the SDK's own types (openai 7.55), both ways. At compile time: every value the
// SDK's type admits is one our schema's input type admits, and what our schemas give for the server's events
// is a value of the SDK's type. At run time: examples typed by the SDK parse, field for field. The server's
// real frames are parsed by the same schemas in test/unit/server/steering*.test.ts.

/** Compiles only when `From` is assignable to `To`. */
type Assignable<From, To> = [From] extends [To] ? true : false;
const holds = <T extends true>(proof: T): T => proof;
/**
 * A schema's type without the index signatures of loose objects (`[key: string]: unknown`), which the SDK's
 * interfaces lack: what is left are the fields both sides name.
 */
type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

// Every value the SDK's types admit is a value of our schemas.
holds<Assignable<Sdk.ResponseSteerEvent, Known<z.input<typeof ResponseSteerEvent>>>>(true);
holds<Assignable<Sdk.ResponseSteerInput, Known<z.input<typeof ResponseSteerInput>>>>(true);
holds<Assignable<Sdk.ResponseSteerAcceptedEvent, Known<z.input<typeof ResponseSteerAcceptedEvent>>>>(true);
holds<Assignable<Sdk.ResponseSteerPendingEvent, Known<z.input<typeof ResponseSteerPendingEvent>>>>(true);
holds<Assignable<Sdk.ResponseSteerFailedEvent, Known<z.input<typeof ResponseSteerFailedEvent>>>>(true);
holds<Assignable<Sdk.ResponseSteerRequiredInput, Known<z.input<typeof SteerRequiredInput>>>>(true);
holds<Assignable<Sdk.ResponseSteerErrorCode, z.input<typeof ResponseSteerErrorCode>>>(true);
// And what our schemas give is a value of the SDK's types, where ours are not open on purpose: the failed
// event returns any input as given after `invalid_input`, and unknown stubs are kept as given.
holds<Assignable<SteerErrorCode, Sdk.ResponseSteerErrorCode>>(true);
holds<Assignable<Known<ResponseSteerAcceptedEvent>, Sdk.ResponseSteerAcceptedEvent>>(true);
holds<
  Assignable<
    Omit<Known<ResponseSteerPendingEvent>, 'required_input'>,
    Omit<Sdk.ResponseSteerPendingEvent, 'required_input'>
  >
>(true);
holds<Assignable<Known<SteerRequiredInput>, Sdk.ResponseSteerRequiredInput>>(true);
holds<Assignable<Known<ResponseSteerFailedEvent['error']>, Sdk.ResponseSteerFailedEvent.Error>>(true);

const steerWithItems = {
  type: 'response.steer',
  previous_response_id: 'resp_1',
  input: [
    { type: 'message', role: 'user', content: 'also run the linter' },
    {
      type: 'message',
      role: 'user',
      id: null,
      status: null,
      content: [
        { type: 'input_text', text: 'see this' },
        { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,AA==', file_id: null },
        { type: 'input_file', file_id: 'file_1', filename: null, file_url: null, file_data: null },
      ],
    },
  ],
} satisfies Sdk.ResponseSteerEvent;

const accepted = {
  type: 'response.steer.accepted',
  sequence_number: 7,
  steer: { id: 'steer_1', previous_response_id: 'resp_1' },
  stream_id: 'lane-a',
} satisfies Sdk.ResponseSteerAcceptedEvent;

const pending = {
  type: 'response.steer.pending',
  sequence_number: 12,
  reason: 'waiting_for_required_input',
  required_input: [
    { type: 'function_call_output', call_id: 'call_1', name: 'exec_command' },
    { type: 'custom_tool_call_output', call_id: 'call_2' },
    { type: 'computer_call_output', call_id: 'call_3' },
    { type: 'shell_call_output', call_id: 'call_4' },
    { type: 'apply_patch_call_output', call_id: 'call_5' },
    { type: 'tool_search_output', call_id: 'call_6', execution: 'client' },
    { type: 'mcp_approval_response', approval_request_id: 'mcpr_1' },
  ],
  steer: { id: 'steer_1', previous_response_id: 'resp_1' },
} satisfies Sdk.ResponseSteerPendingEvent;

const failedBeforeId = {
  type: 'response.steer.failed',
  sequence_number: 0,
  error: {
    code: 'response_not_found',
    message: 'No response resp_9 on this connection.',
    type: 'invalid_request_error',
  },
  steer: { input: 'also run the linter', previous_response_id: 'resp_9' },
} satisfies Sdk.ResponseSteerFailedEvent;

const failedAfterAccept = {
  type: 'response.steer.failed',
  sequence_number: 30,
  error: { code: 'successor_creation_failed', message: 'No successor.', type: 'invalid_request_error' },
  steer: { id: 'steer_1', input: steerWithItems.input, previous_response_id: 'resp_1' },
  stream_id: 'lane-a',
} satisfies Sdk.ResponseSteerFailedEvent;

describe('protocol: steering shapes, as the SDK types them', () => {
  it('response.steer with a string and with user messages of text, image and file parts', () => {
    parses(ResponseSteerEvent, steerWithItems);
    const plain = {
      type: 'response.steer',
      previous_response_id: 'resp_1',
      input: 'stop',
    } satisfies Sdk.ResponseSteerEvent;
    assert.deepEqual(parses(ClientEvent, plain), plain);
    assert.deepEqual(parses(ClientEvent, steerWithItems), steerWithItems);
  });

  it('a message without type (the doc comment calls it optional) and a function call output (its type admits one)', () => {
    parses(ResponseSteerInput, [{ role: 'user', content: 'hi' }]);
    const output = {
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'ok',
    } satisfies Sdk.ResponseSteerInput[number];
    parses(ResponseSteerInput, [output]);
  });

  it('only type, previous_response_id and input: a stream_id or another role is refused by name', () => {
    const withLane = parseWire(ResponseSteerEvent, {
      type: 'response.steer',
      previous_response_id: 'r',
      input: 'x',
      stream_id: 'a',
    });
    assert.ok(!withLane.ok);
    assert.match(withLane.error.message, /stream_id/);
    const developer = parseWire(ResponseSteerEvent, {
      type: 'response.steer',
      previous_response_id: 'r',
      input: [{ role: 'developer', content: 'x' }],
    });
    assert.ok(!developer.ok);
    assert.match(developer.error.message, /input\[0\]/);
  });

  it('accepted, pending with every kind of required input, failed before and after an id', () => {
    for (const event of [accepted, pending, failedBeforeId, failedAfterAccept])
      assert.deepEqual(parses(AnyServerEvent, event), event);
    parses(ResponseSteerAcceptedEvent, accepted);
    parses(ResponseSteerPendingEvent, pending);
    parses(ResponseSteerFailedEvent, failedBeforeId);
    parses(ResponseSteerFailedEvent, failedAfterAccept);
  });

  it('codes, reasons and stubs the SDK does not know yet are taken (its enums are open)', () => {
    parses(ResponseSteerFailedEvent, { ...failedBeforeId, error: { ...failedBeforeId.error, code: 'steer_quota' } });
    parses(ResponseSteerPendingEvent, {
      ...pending,
      reason: 'waiting_for_approval',
      required_input: [{ type: 'future_call_output', call_id: 'c' }],
    });
    assert.deepEqual(SteerErrorCode.options, [
      'response_not_found',
      'invalid_input',
      'steering_not_supported',
      'too_many_pending_steers',
      'response_already_completed',
      'response_not_active',
      'successor_creation_failed',
    ] satisfies Sdk.ResponseSteerErrorCode[]);
  });

  it('an accepted steer has an id; a failure has the error type and the input it returns', () => {
    const noId = parseWire(ResponseSteerAcceptedEvent, { ...accepted, steer: { previous_response_id: 'resp_1' } });
    assert.ok(!noId.ok);
    assert.match(noId.error.message, /steer\.id/);
    const wrongType = parseWire(ResponseSteerFailedEvent, {
      ...failedBeforeId,
      error: { ...failedBeforeId.error, type: 'server_error' },
    });
    assert.ok(!wrongType.ok);
    const noInput = parseWire(ResponseSteerFailedEvent, { ...failedBeforeId, steer: { previous_response_id: 'r' } });
    assert.ok(!noInput.ok);
    assert.match(noInput.error.message, /steer\.input/);
  });

  it('the three server events are modelled types, and response.steer a client event', () => {
    for (const type of ['response.steer.accepted', 'response.steer.pending', 'response.steer.failed'])
      assert.ok(SERVER_EVENT_TYPES.includes(type), type);
  });
});
