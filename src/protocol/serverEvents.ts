import * as z from 'zod';
import { AnyStreamedContentPart, SummaryText } from './contentParts';
import { ErrorEvent } from './errors';
import { AnyInputItem, AnyOutputItem } from './items';
import { discriminatorValues, openUnion } from './openUnion';
import { ResponseObject } from './response';
import { ResponseSteerAcceptedEvent, ResponseSteerFailedEvent, ResponseSteerPendingEvent } from './steering';
import { streamEvent } from './streamEvent';

// Every streamed event of docs/protocol.md §2.1, §2.6, §10 and §13. The same objects travel as
// SSE `data:` over HTTP and as one text frame each over WebSocket, where they may also carry `stream_id`.

const itemRef = { item_id: z.string(), output_index: z.int().nonnegative() };
const partRef = { ...itemRef, content_index: z.int().nonnegative() };
const summaryRef = { ...itemRef, summary_index: z.int().nonnegative() };
const response = { response: ResponseObject };
const logprobs = { logprobs: z.array(z.unknown()).optional() };

// The response's lifecycle. Exactly one of completed / incomplete / failed ends it.
export const ResponseCreatedEvent = streamEvent('response.created', response);
export const ResponseQueuedEvent = streamEvent('response.queued', response);
export const ResponseInProgressEvent = streamEvent('response.in_progress', response);
export const ResponseCompletedEvent = streamEvent('response.completed', response);
export const ResponseIncompleteEvent = streamEvent('response.incomplete', response);
export const ResponseFailedEvent = streamEvent('response.failed', response);

// Output items: `added` carries the skeleton, `done` the final item.
const outputItem = { output_index: z.int().nonnegative(), item: AnyOutputItem };
export const OutputItemAddedEvent = streamEvent('response.output_item.added', outputItem);
export const OutputItemDoneEvent = streamEvent('response.output_item.done', outputItem);

// Message content: a part's `added` and `done` carry the same shape.
const contentPart = { ...partRef, part: AnyStreamedContentPart };
export const ContentPartAddedEvent = streamEvent('response.content_part.added', contentPart);
export const ContentPartDoneEvent = streamEvent('response.content_part.done', contentPart);
export const OutputTextDeltaEvent = streamEvent('response.output_text.delta', {
  ...partRef,
  delta: z.string(),
  ...logprobs,
  obfuscation: z.string().optional(),
});
export const OutputTextDoneEvent = streamEvent('response.output_text.done', {
  ...partRef,
  text: z.string(),
  ...logprobs,
});
export const OutputTextAnnotationAddedEvent = streamEvent('response.output_text.annotation.added', {
  ...partRef,
  annotation_index: z.int().nonnegative(),
  annotation: z.unknown(),
});
export const RefusalDeltaEvent = streamEvent('response.refusal.delta', { ...partRef, delta: z.string() });
export const RefusalDoneEvent = streamEvent('response.refusal.done', { ...partRef, refusal: z.string() });

// Tool calls. `name` on the function-call `done` event is sent by some servers; clients must not need it.
const callDelta = { ...itemRef, delta: z.string() };
export const FunctionCallArgumentsDeltaEvent = streamEvent('response.function_call_arguments.delta', callDelta);
export const FunctionCallArgumentsDoneEvent = streamEvent('response.function_call_arguments.done', {
  ...itemRef,
  arguments: z.string(),
  name: z.string().optional(),
});
export const CustomToolCallInputDeltaEvent = streamEvent('response.custom_tool_call_input.delta', callDelta);
export const CustomToolCallInputDoneEvent = streamEvent('response.custom_tool_call_input.done', {
  ...itemRef,
  input: z.string(),
});

// Reasoning: summaries (when requested) and raw text (open models).
const summaryPart = { ...summaryRef, part: SummaryText };
export const ReasoningSummaryPartAddedEvent = streamEvent('response.reasoning_summary_part.added', summaryPart);
export const ReasoningSummaryPartDoneEvent = streamEvent('response.reasoning_summary_part.done', summaryPart);
export const ReasoningSummaryTextDeltaEvent = streamEvent('response.reasoning_summary_text.delta', {
  ...summaryRef,
  delta: z.string(),
});
export const ReasoningSummaryTextDoneEvent = streamEvent('response.reasoning_summary_text.done', {
  ...summaryRef,
  text: z.string(),
});
export const ReasoningTextDeltaEvent = streamEvent('response.reasoning_text.delta', { ...partRef, delta: z.string() });
export const ReasoningTextDoneEvent = streamEvent('response.reasoning_text.done', { ...partRef, text: z.string() });

// Client-owned tool outputs injected into an active response (beta multi-agent surface, §2.6).
export const InjectCreatedEvent = streamEvent('response.inject.created', { response_id: z.string() });
export const InjectFailedEvent = streamEvent('response.inject.failed', {
  response_id: z.string(),
  error: z.looseObject({ code: z.string(), message: z.string() }),
  input: z.array(AnyInputItem).optional(),
});

/** Every event but `error`, by `type`. */
export const ResponseStreamEvent = z.discriminatedUnion('type', [
  ResponseCreatedEvent,
  ResponseQueuedEvent,
  ResponseInProgressEvent,
  ResponseCompletedEvent,
  ResponseIncompleteEvent,
  ResponseFailedEvent,
  OutputItemAddedEvent,
  OutputItemDoneEvent,
  ContentPartAddedEvent,
  ContentPartDoneEvent,
  OutputTextDeltaEvent,
  OutputTextDoneEvent,
  OutputTextAnnotationAddedEvent,
  RefusalDeltaEvent,
  RefusalDoneEvent,
  FunctionCallArgumentsDeltaEvent,
  FunctionCallArgumentsDoneEvent,
  CustomToolCallInputDeltaEvent,
  CustomToolCallInputDoneEvent,
  ReasoningSummaryPartAddedEvent,
  ReasoningSummaryPartDoneEvent,
  ReasoningSummaryTextDeltaEvent,
  ReasoningSummaryTextDoneEvent,
  ReasoningTextDeltaEvent,
  ReasoningTextDoneEvent,
  // Steering (WebSocket only, docs/protocol.md §13): their schemas are in steering.ts.
  ResponseSteerAcceptedEvent,
  ResponseSteerPendingEvent,
  ResponseSteerFailedEvent,
  InjectCreatedEvent,
  InjectFailedEvent,
]);

/** Every event this version models: the stream events, and `error` in either of its shapes. */
export const ServerEvent = z.union([ResponseStreamEvent, ErrorEvent]);

/** The `type` of every modelled server event. */
export const SERVER_EVENT_TYPES: readonly string[] = [...discriminatorValues(ResponseStreamEvent), 'error'];

/**
 * A server event as a client receives it: a modelled one, or any other type kept as given, for the
 * client to ignore (the API adds event types for tools Loopwire does not offer).
 */
export const AnyServerEvent = openUnion(ServerEvent, SERVER_EVENT_TYPES);

/** The terminal events; exactly one ends every response (§2.1). */
export const TERMINAL_EVENT_TYPES = ['response.completed', 'response.incomplete', 'response.failed'] as const;

export type ResponseStreamEvent = z.infer<typeof ResponseStreamEvent>;
export type ServerEvent = z.infer<typeof ServerEvent>;
export type AnyServerEvent = z.infer<typeof AnyServerEvent>;
