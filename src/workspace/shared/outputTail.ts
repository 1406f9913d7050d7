import type { TaskRun } from '../workspace';

// A task's output as the tools get it: its beginning and its end (a build can print megabytes; what was asked
// for — `rg`'s first matches, `git diff`'s first file — is at the top, and a failure's summary at the bottom),
// decoded as UTF-8 across chunk boundaries, with terminal colour codes removed. What is dropped from the
// middle is said on a line of its own ({@link cutLine}), so no reader takes the two parts for one.

/** Bytes of output kept from the end. */
export const TASK_OUTPUT_TAIL_BYTES = 128 * 1024;
/** Bytes of output kept from the start. */
export const TASK_OUTPUT_HEAD_BYTES = 128 * 1024;

/** The line that stands where the middle of an output was dropped. */
export function cutLine(what: string): string {
  return `[… ${what} cut from the middle …]`;
}

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks). Built from the code
// points, so that no control character sits in a regular-expression literal. Not util.stripVTControlCharacters:
// it strips an OSC only where its text has no space, and VS Code's shell integration sends whole command
// lines in OSC 633 (`ESC]633;E;echo hi there;…BEL` came out as `;echo hi there;…`).
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)|${ESC}[@-Z\\\\-_]`,
  'g',
);

export class OutputTail {
  private readonly head: Buffer[] = [];
  private headHeld = 0;
  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes received in all. */
  total = 0;

  constructor(
    private readonly limit = TASK_OUTPUT_TAIL_BYTES,
    private readonly headLimit = TASK_OUTPUT_HEAD_BYTES,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headHeld < this.headLimit) {
      const taken = chunk.subarray(0, this.headLimit - this.headHeld);
      this.head.push(taken);
      this.headHeld += taken.length;
      chunk = chunk.subarray(taken.length);
      if (chunk.length === 0) return;
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
    while (this.held - (this.chunks[0]?.length ?? 0) >= this.limit) this.held -= (this.chunks.shift() as Buffer).length;
  }

  /** Whether bytes were dropped between the head and the tail. */
  get truncated(): boolean {
    return this.total > this.headLimit + this.limit;
  }

  /**
   * The kept bytes as text: the head cut after its last whole line and the tail from its first, when bytes
   * were dropped between them (so no half line or half character sits by the cut), with the cut's line.
   */
  text(): string {
    let head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.chunks);
    if (tail.length > this.limit) tail = tail.subarray(tail.length - this.limit);
    if (!this.truncated) return clean(Buffer.concat([head, tail]));
    const lastNewline = head.lastIndexOf(0x0a);
    if (lastNewline > 0) head = head.subarray(0, lastNewline + 1);
    const newline = tail.indexOf(0x0a);
    if (newline >= 0 && newline < tail.length - 1) tail = tail.subarray(newline + 1);
    const dropped = this.total - head.length - tail.length;
    return `${clean(head)}${cutLine(`${dropped.toLocaleString('en-US')} bytes of output`)}\n${clean(tail)}`;
  }
}

function clean(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(ANSI, '').replace(/\r\n/g, '\n');
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
