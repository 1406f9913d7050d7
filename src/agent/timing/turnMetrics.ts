import type { ContextPlan } from '../conversation/contextWindow';
import type { TurnMetrics } from '../events';
import type { TurnOutcome } from '../transport/modelTransport';
import type { CallTiming } from '../toolRunner';

// One turn's figures, as the turn_finished event carries them: where the time went (the client's overhead
// before and after the model, the model, the tools, the approvals), what went on the wire, and the tokens.

export interface TurnTimes {
  /** When the loop was ready to send this turn's request (performance.now()). */
  readyAt: number;
  /** When the previous turn's response ended, less the approval waits of its calls since. */
  previousEndAt: number | undefined;
}

export function turnMetrics(
  turn: number,
  outcome: TurnOutcome,
  timing: CallTiming,
  times: TurnTimes,
  plan: ContextPlan | undefined,
  compactedTokens: number | undefined,
): TurnMetrics {
  const usage = outcome.response.usage;
  const compacted = compactedTokens !== undefined;
  return {
    turn,
    transport: outcome.transport,
    chained: outcome.chained,
    attempts: outcome.attempts,
    timeToFirstEventMs: Math.max(0, outcome.firstEventAt - outcome.sentAt),
    timeToFirstTokenMs: outcome.firstDeltaAt === undefined ? null : Math.max(0, outcome.firstDeltaAt - outcome.sentAt),
    modelMs: Math.max(0, outcome.completedAt - outcome.firstEventAt),
    toolMs:
      timing.firstStartAt === undefined || timing.lastFinishAt === undefined
        ? 0
        : Math.max(0, timing.lastFinishAt - timing.firstStartAt - timing.approvalMs),
    approvalMs: timing.approvalMs,
    overheadBeforeMs: Math.max(0, outcome.firstSentAt - times.readyAt),
    overheadAfterMs: timing.firstStartAt === undefined ? null : Math.max(0, timing.firstStartAt - outcome.completedAt),
    gapMs: times.previousEndAt === undefined ? null : Math.max(0, outcome.firstSentAt - times.previousEndAt),
    bytesSent: outcome.bytesSent,
    bytesReceived: outcome.bytesReceived,
    inputTokens: usage?.input_tokens ?? 0,
    cachedTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    itemsSent: outcome.itemsSent,
    contextTokens: compactedTokens ?? (usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0),
    ...(plan ? { contextWindow: plan.window } : {}),
    ...(compacted ? { compacted } : {}),
  };
}
