// Where the client's turnaround goes (issue 51): from a response's terminal event to the next request on the
// wire (the turn's `gapMs`), split at the loop's own boundaries, so that a slow first gap says which part of
// the loop was cold. The phases add up to the gap: each mark closes the phase since the previous one.

/** The phases in the order a turnaround goes through them. */
export const GAP_PHASES = [
  /** The terminal event → the loop holding the response (the last events' handling, the awaits after them). */
  'response',
  /** The output into the transcript, and shown. */
  'keep',
  /** The calls run, their outputs in the transcript; waits for a person's approval left out. */
  'tools',
  /** The turn's figures, AGENTS.md files new to the chat, steers, the checks for the task's end. */
  'after',
  /** The next turn begun: the environment and instructions items where they changed, a compaction's check. */
  'next',
  /** The request's body, as JSON, handed to the socket. */
  'request',
] as const;

export type GapPhase = (typeof GAP_PHASES)[number];

/** Milliseconds per phase (each present, 0 where it took no time). */
export type GapPhases = Record<GapPhase, number>;

export class TurnGap {
  private last: number;
  private readonly spent = new Map<GapPhase, number>();

  /** From `from` (performance.now()): the response's terminal event. */
  constructor(from: number) {
    this.last = from;
  }

  /** `phase` ends at `now`; `excludedMs` of it (an approval's wait) is not the client's. */
  mark(phase: GapPhase, excludedMs = 0, now = performance.now()): void {
    const ms = Math.max(0, now - this.last - excludedMs);
    this.spent.set(phase, (this.spent.get(phase) ?? 0) + ms);
    this.last = now;
  }

  /** The split, the request's phase ending at `sentAt` (its bytes handed to the socket). */
  end(sentAt: number): GapPhases {
    this.mark('request', 0, Math.max(sentAt, this.last));
    return Object.fromEntries(GAP_PHASES.map((phase) => [phase, this.spent.get(phase) ?? 0])) as GapPhases;
  }
}
