import type { TaskRun } from '../workspace';

// A task's output as the model gets it: the last part only (a build can print megabytes), decoded as UTF-8
// across chunk boundaries, with terminal colour codes removed.

/** Bytes of output kept from the end. */
export const TASK_OUTPUT_TAIL_BYTES = 64 * 1024;

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks). Built from the code
// points, so that no control character sits in a regular-expression literal.
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)|${ESC}[@-Z\\\\-_]`,
  'g',
);

export class OutputTail {
  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes received in all. */
  total = 0;

  constructor(private readonly limit = TASK_OUTPUT_TAIL_BYTES) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.held += chunk.length;
    while (this.held - (this.chunks[0]?.length ?? 0) >= this.limit) this.held -= (this.chunks.shift() as Buffer).length;
  }

  get truncated(): boolean {
    return this.total > this.limit;
  }

  /** The kept bytes as text: cut at a line start when truncated, so no half line or half character leads. */
  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (bytes.length > this.limit) bytes = bytes.subarray(bytes.length - this.limit);
    if (this.truncated) {
      const newline = bytes.indexOf(0x0a);
      if (newline >= 0 && newline < bytes.length - 1) bytes = bytes.subarray(newline + 1);
    }
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(ANSI, '').replace(/\r\n/g, '\n');
  }
}

/** A finished run as the tools report it, its output this tail. */
export function finishedRun(tail: OutputTail, exitCode: number | null, timedOut: boolean, startedAt: number): TaskRun {
  return {
    exitCode,
    output: tail.text(),
    outputTruncated: tail.truncated,
    timedOut,
    durationMs: Date.now() - startedAt,
  };
}
