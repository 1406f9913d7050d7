// Where the time from Enter to an inline edit's first painted line went: the run marks each moment, the log
// says the parts (the workbench suite reads them from the log, the API's `inline.lastTiming` gives the last).

/** Where the time from Enter to the first painted line went (the log says it; the workbench test reads it). */
export interface InlineTiming {
  /** Enter to the agent ready (made and warmed while the prompt was typed, or now). */
  agentMs: number;
  /** Then to the first delta of an edit call (the request, the model's first tokens). */
  firstDeltaMs: number;
  /** Then to the first preview that changes the file (the model writing up to its first changed line). */
  previewMs: number;
  /** Then to the editor holding it (the buffer's edit, a round trip to the window). */
  paintMs: number;
  totalMs: number;
}

/** The moments an inline run marks on its way to the first painted line (performance.now()). */
export interface TimingMarks {
  agentAt?: number;
  deltaAt?: number;
  previewAt?: number;
  paintAt?: number;
  /** The file's last write by the edit tool (then the run ends, and its Keep / Undo are drawn). */
  writtenAt?: number;
}

/** The parts, once every moment is known; `sentAt`: Enter. */
export function timingOf(marks: TimingMarks, sentAt: number): InlineTiming | undefined {
  const { agentAt, deltaAt, previewAt, paintAt } = marks;
  if (agentAt === undefined || deltaAt === undefined || previewAt === undefined || paintAt === undefined)
    return undefined;
  return {
    agentMs: agentAt - sentAt,
    firstDeltaMs: deltaAt - agentAt,
    previewMs: previewAt - deltaAt,
    paintMs: paintAt - previewAt,
    totalMs: paintAt - sentAt,
  };
}

/** The log's words for `timing` (nothing when unknown). */
export function timingLine(timing: InlineTiming | undefined): string {
  return timing
    ? `; first line painted ${timing.totalMs.toFixed(1)} ms after Enter: agent ${timing.agentMs.toFixed(1)} ms, first edit delta ${timing.firstDeltaMs.toFixed(1)} ms, first changed line written ${timing.previewMs.toFixed(1)} ms, painted ${timing.paintMs.toFixed(1)} ms`
    : '';
}

/** The log's words for the time from the edit's last write to its end, where its Keep / Undo are drawn. */
export function endLine(marks: TimingMarks): string {
  return marks.writtenAt === undefined
    ? ''
    : `; ended ${(performance.now() - marks.writtenAt).toFixed(1)} ms after its last write`;
}
