import * as z from 'zod';
import { AnyInputItem } from './items';
import { ResponseRequest } from './request';
import { ResponseSteerEvent } from './steering';

// What a client sends over the WebSocket (docs/protocol.md §1.5), one JSON text frame each.

/** One turn: the `POST /v1/responses` body plus `type` (`stream` tolerated, `background` refused). */
export const ResponseCreateEvent = ResponseRequest.extend({ type: z.literal('response.create') });

/** Inject client-owned tool outputs into an active response (beta multi-agent surface). */
export const ResponseInjectEvent = z.looseObject({
  type: z.literal('response.inject'),
  response_id: z.string(),
  input: z.array(AnyInputItem),
});

/** Codex's acknowledgement on reused connections: not part of the public protocol; accepted and ignored. */
export const ResponseProcessedEvent = z.looseObject({
  type: z.literal('response.processed'),
  response_id: z.string().optional(),
});

/** Every client event. Closed: a server answers an unknown `type` with an error naming it. */
export const ClientEvent = z.discriminatedUnion('type', [
  ResponseCreateEvent,
  // Steer the running response `previous_response_id` with more user input (§13; its schema in steering.ts).
  ResponseSteerEvent,
  ResponseInjectEvent,
  ResponseProcessedEvent,
]);

export type ResponseCreateEvent = z.infer<typeof ResponseCreateEvent>;
export type ResponseInjectEvent = z.infer<typeof ResponseInjectEvent>;
export type ResponseProcessedEvent = z.infer<typeof ResponseProcessedEvent>;
export type ClientEvent = z.infer<typeof ClientEvent>;
