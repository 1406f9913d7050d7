import type { TurnMetrics } from '../../../src/agent';
import type { TurnRecord } from '../../../src/server';
import type { LongCompaction, LongPhase, LongTurn } from './benchTypes';

// The long mode's figures: each turn's client metrics beside the server's record of the same request, and
// the turns split at each compaction — before the first, between two, after the last — so that what a turn
// costs (client overhead, bytes sent, server work) can be compared before and after each one.

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * A task's turns, the client's metrics (one per turn) zipped with the server's records of the same task in
 * the order they were answered; warm-ups (which answer no turn) are left out. Anything but one answered
 * request per turn — a refusal, a compaction on request — makes the pairing unsound, and throws.
 */
export function longTurns(metrics: readonly TurnMetrics[], records: readonly TurnRecord[]): LongTurn[] {
  const answered = records.filter((record) => record.trace !== 'warm-up');
  const odd = answered.filter((record) => record.outcome !== 'completed');
  if (odd.length > 0 || answered.length !== metrics.length)
    throw new Error(
      `the long task expects one answered request a turn: ${metrics.length} turns, server records ${answered
        .map((record) => record.outcome)
        .join(', ')}`,
    );
  return metrics.map((m, i) => {
    const record = answered[i] as TurnRecord;
    return {
      turn: m.turn,
      compacted: record.compaction !== null,
      overhead_ms: m.overheadBeforeMs + (m.overheadAfterMs ?? 0),
      bytes_sent: m.bytesSent,
      server_ms: record.parseMs + record.loadMs + record.workMs,
      tokenized_tokens: record.tokenizedTokens,
      input_tokens: record.inputTokens,
      context_tokens: record.contextTokens,
    };
  });
}

/** How many of `turns` compacted before `turn`. */
const compactionsBefore = (turns: readonly LongTurn[], turn: number) =>
  turns.filter((t) => t.compacted && t.turn < turn).length;

/**
 * The phases between compactions and the compacting turns themselves, with medians over every repetition
 * (`reps`, the same task run again: the same turns compact each time). Turn 1 is left out of the phases, as in
 * the main table: it carries the prompt, with no tool result before it.
 */
export function compactionPhases(reps: readonly (readonly LongTurn[])[]): {
  phases: LongPhase[];
  compactions: LongCompaction[];
} {
  const first = reps[0] ?? [];
  const count = first.filter((t) => t.compacted).length;
  const phases: LongPhase[] = [];
  for (let k = 0; k <= count; k++) {
    const inPhase = (rep: readonly LongTurn[]) =>
      rep.filter((t) => t.turn > 1 && !t.compacted && compactionsBefore(rep, t.turn) === k);
    const turns = reps.flatMap(inPhase);
    const own = inPhase(first);
    const head = own[0];
    const tail = own.at(-1);
    if (!head || !tail) continue;
    phases.push({
      after_compactions: k,
      first_turn: head.turn,
      last_turn: tail.turn,
      turns: turns.length,
      input_tokens_first: head.input_tokens,
      input_tokens_last: tail.input_tokens,
      overhead_p50_ms: median(turns.map((t) => t.overhead_ms)),
      bytes_sent_per_turn: median(turns.map((t) => t.bytes_sent)),
      server_ms_per_turn: median(turns.map((t) => t.server_ms)),
      tokenized_tokens_per_turn: median(turns.map((t) => t.tokenized_tokens)),
    });
  }
  const compactions = first
    .filter((t) => t.compacted)
    .map((t, j): LongCompaction => {
      const same = reps.flatMap((rep) => rep.filter((r) => r.compacted)[j] ?? []);
      return {
        turn: t.turn,
        tokens_before: t.input_tokens,
        tokens_after: t.context_tokens,
        overhead_ms: median(same.map((r) => r.overhead_ms)),
        bytes_sent: median(same.map((r) => r.bytes_sent)),
        server_ms: median(same.map((r) => r.server_ms)),
        tokenized_tokens: median(same.map((r) => r.tokenized_tokens)),
      };
    });
  return { phases, compactions };
}
