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
  /** On the way from the last streamed delta to the end: each moment, the latest of its kind. */
  lastDeltaAt?: number;
  /** The last streamed step the editor acknowledged. */
  lastPaintAt?: number;
  /** The edit tool started (the model's call complete). */
  toolAt?: number;
  /** The tool asked for the write (its step then waits behind those queued before it). */
  writeAt?: number;
  /** The agent's run returned. */
  doneAt?: number;
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

/**
 * The log's words for the time from the edit's last write to its end, where its Keep / Undo are drawn, and
 * the way there from the model's last streamed delta (each moment after that delta, in ms).
 */
export function endLine(marks: TimingMarks, now = performance.now()): string {
  if (marks.writtenAt === undefined) return '';
  const from = marks.lastDeltaAt;
  const at = (moment: number | undefined) =>
    from === undefined || moment === undefined ? '—' : (moment - from).toFixed(1);
  const way =
    from === undefined
      ? ''
      : ` (after the last delta: last step painted ${at(marks.lastPaintAt)}, tool ${at(marks.toolAt)}, write asked ${at(marks.writeAt)}, written ${at(marks.writtenAt)}, agent done ${at(marks.doneAt)}, ended ${at(now)} ms)`;
  return `; ended ${(now - marks.writtenAt).toFixed(1)} ms after its last write${way}`;
}
