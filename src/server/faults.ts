import * as path from 'node:path';
import * as z from 'zod';
import { type ApiError, errorCodeInfo } from '../protocol';

// Fault injection for the reliability suites: per scenario step (in the scenario file) or queued through
// the admin endpoint. `after_events` counts the events already sent for the response (0 = before any).

const afterEvents = z.int().nonnegative().default(0);

export const Fault = z.discriminatedUnion('kind', [
  /** Drop the connection (WebSocket or HTTP) without a goodbye after N events. */
  z.strictObject({ kind: z.literal('close'), after_events: afterEvents }),
  /** Send one frame (or SSE event) that is not JSON, then go on as normal. */
  z.strictObject({ kind: z.literal('malformed_frame'), after_events: afterEvents }),
  /** Send the first half of the next event's frame, then drop the connection. */
  z.strictObject({ kind: z.literal('truncated_frame'), after_events: afterEvents }),
  /**
   * Answer with an API error: before any event it is the request's answer (an HTTP status, or a nested
   * WebSocket `error` with that status); later it is a mid-stream `error` followed by `response.failed`.
   * A code of the error table (`src/protocol/errorCodes.ts`: `insufficient_quota`, `model_not_found`,
   * `rate_limit_exceeded`…) brings the API's own status, type and wording; `status` and `message` override them.
   */
  z.strictObject({
    kind: z.literal('error'),
    after_events: afterEvents,
    status: z.int().min(400).max(599).optional(),
    code: z.string().min(1).default('server_error'),
    message: z.string().min(1).optional(),
    /** Sent as `Retry-After` (HTTP) and in the error's `headers` (WebSocket). */
    retry_after_s: z.int().nonnegative().optional(),
  }),
  /**
   * Stop sending for `ms` after N events (for ever, until the client goes away, when `ms` is absent). With
   * `until_file` (an absolute path) the stall also ends once that file exists: a test holds the model back
   * for as long as it needs and no longer, where a fixed `ms` had to be sized for the slowest machine.
   */
  z.strictObject({
    kind: z.literal('stall'),
    after_events: afterEvents,
    ms: z.int().positive().optional(),
    until_file: z
      .string()
      .refine((file) => path.isAbsolute(file), 'until_file must be an absolute path')
      .optional(),
  }),
  /** Generate `factor` times slower than `--tps` for this response. */
  z.strictObject({ kind: z.literal('slow'), factor: z.number().min(1) }),
]);

export type Fault = z.infer<typeof Fault>;

/** The admin endpoint's body: apply `fault` to the next `count` responses (of one transport, if given). */
export const FaultOrder = z.strictObject({
  fault: Fault,
  count: z.int().positive().default(1),
  transport: z.enum(['http', 'ws']).optional(),
});
export type FaultOrder = z.infer<typeof FaultOrder>;

/** Faults queued by the admin endpoint, taken by the next responses in arrival order. */
export class FaultQueue {
  private readonly orders: { fault: Fault; left: number; transport: 'http' | 'ws' | undefined }[] = [];

  add(order: FaultOrder): void {
    this.orders.push({ fault: order.fault, left: order.count, transport: order.transport });
  }

  clear(): void {
    this.orders.length = 0;
  }

  pending(): { fault: Fault; left: number; transport: 'http' | 'ws' | undefined }[] {
    return this.orders.map((order) => ({ ...order }));
  }

  /** The fault for the next response on `transport`, if one is queued. */
  take(transport: 'http' | 'ws'): Fault | undefined {
    const index = this.orders.findIndex((order) => order.transport === undefined || order.transport === transport);
    const order = this.orders[index];
    if (!order) return undefined;
    order.left -= 1;
    if (order.left === 0) this.orders.splice(index, 1);
    return order.fault;
  }
}

/** The API error an `error` fault answers with: its code's entry in the error table, and what the fault overrides. */
export function faultError(fault: Extract<Fault, { kind: 'error' }>): { status: number; error: ApiError } {
  const known = errorCodeInfo(fault.code);
  const status = fault.status ?? known?.status ?? 500;
  return {
    status,
    error: {
      type:
        known?.type ?? (status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error'),
      code: fault.code,
      message: fault.message ?? known?.message ?? `Injected fault: ${fault.code}.`,
      param: null,
    },
  };
}
