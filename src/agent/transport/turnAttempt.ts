import type { AnyInputItem } from '../../protocol';
import { type Chain, ChainPolicy } from './chainPolicy';
import type { TurnOutcome } from './transportOptions';
import type { Attempt } from './wsExchange';

// What one attempt at a turn sent and got back, and what the turn reports once one completed
// (ModelTransport.run's bookkeeping, kept apart from its retries).

/** A turn's traffic over all its attempts. */
export interface Totals {
  bytesSent: number;
  bytesReceived: number;
  firstSentAt: number | undefined;
}

/** One attempt: what came back, and the context it was sent with (whole, chained on `chain`, or `input` alone). */
export interface Sent {
  result: Attempt;
  chain: Chain | undefined;
  context: readonly AnyInputItem[];
  input: readonly AnyInputItem[];
}

/** What a completed turn reports: its response, output and how it travelled. */
export function outcomeOf(
  sent: Sent,
  step: Extract<Attempt['step'], { kind: 'done' }>,
  how: { transport: 'ws' | 'http'; attempts: number; totals: Totals; newItems: number },
): TurnOutcome {
  const { result, chain, context, input } = sent;
  const now = performance.now();
  return {
    response: step.response,
    output: step.output,
    transport: how.transport,
    chained: ChainPolicy.chained(chain, context.length, how.newItems),
    attempts: how.attempts,
    itemsSent: input.length,
    bytesSent: how.totals.bytesSent,
    bytesReceived: how.totals.bytesReceived,
    firstSentAt: how.totals.firstSentAt ?? result.sentAt,
    sentAt: result.sentAt,
    firstEventAt: result.assembler.firstEventAt ?? now,
    firstDeltaAt: result.assembler.firstDeltaAt,
    completedAt: now,
    ...(result.steered ? { steered: result.steered } : {}),
  };
}
