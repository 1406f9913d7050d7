import { emitKeypressEvents } from 'node:readline';
import type { DoneEvent, PromptWithParts } from '../../agent';
import type { CliIo } from '../cliIo';
import { type SteerableAgent, notSentLine, runWithNextPrompts } from './nextPrompts';
import { t } from '../cliL10n';
import { fitTail } from './terminalWidth';

// The terminal's steering for `loopwire exec` (issue 38): while a task runs, a line typed and Enter steers it
// (`Agent.steer`, delivered at the next tool boundary), and Tab queues the line as the next prompt. The keys
// are read in raw mode, one at a time, by this small line editor rather than by readline: readline echoes
// each key where the cursor is, in the middle of the streamed answer. Here the line being typed has a row of
// its own, `steer › …`, shown only while there is text, and the run's output waits while it is shown (then
// comes all at once): the two never share a row. Without a terminal on stdin, stdout and stderr nothing of
// this starts, and stdin is not read.

/** What exec wires: the output it writes, its questions, its task. */
export interface Steering {
  /** Where the run's output goes: straight through, except while a line is being typed. */
  readonly io: CliIo;
  /** `ask` with the keyboard given to the question while it is open: what is typed answers it, not steers. */
  asking<Q, A>(ask: (question: Q) => Promise<A>): (question: Q) => Promise<A>;
  /** Runs the task, then each line queued or steered too late, as the next prompt on the same conversation. */
  run(agent: SteerableAgent, prompt: string | PromptWithParts | undefined, signal: AbortSignal): Promise<DoneEvent>;
}

export const STEERING_HINT = t('Type and Enter to steer the task; Tab queues it as the next prompt.');

/** Steering where exec runs on a terminal (stdin, stdout and stderr); elsewhere the task alone, stdin unread. */
export function terminalSteering(io: CliIo, color: boolean): Steering {
  const onTerminal = process.stdin.isTTY === true && process.stdout.isTTY === true && process.stderr.isTTY === true;
  if (onTerminal) return new TerminalSteering(io, color);
  return { io, asking: (ask) => ask, run: (agent, prompt, signal) => agent.run(prompt, signal) };
}

/** A key as `readline.emitKeypressEvents` describes it. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

const ERASE_ROW = '\r\u001b[2K';
const PROMPT = 'steer › ';

const dim = (on: boolean, text: string) => (on ? `\u001b[2m${text}\u001b[0m` : text);

/** Printable text only: a key that is a control character (or an escape sequence) edits nothing. */
const printable = (text: string) => [...text].every((char) => char >= ' ' && char !== '\u007f');

class TerminalSteering implements Steering {
  readonly io: CliIo;
  /** The line being typed. */
  private line = '';
  /** Its row is on screen (only while it holds text). */
  private shown = false;
  /** Output that came while the row was shown, written when it goes. */
  private readonly held: { to: 'stdout' | 'stderr'; text: string }[] = [];
  /** The last output ended a row: the typed line's row can start here without breaking one. */
  private atRowStart = true;
  /** Lines for after the task (Tab, or Enter when no task takes a steer). */
  private readonly pending: string[] = [];
  private agent: SteerableAgent | undefined;
  /** Questions open: while any is, the keys are theirs. */
  private questions = 0;
  private reading = false;

  constructor(
    private readonly out: CliIo,
    private readonly color: boolean,
  ) {
    this.io = { ...out, stdout: (text) => this.write('stdout', text), stderr: (text) => this.write('stderr', text) };
  }

  asking<Q, A>(ask: (question: Q) => Promise<A>): (question: Q) => Promise<A> {
    return async (question) => {
      if (++this.questions === 1) this.release();
      try {
        return await ask(question);
      } finally {
        if (--this.questions === 0 && this.agent) this.take();
      }
    };
  }

  async run(
    agent: SteerableAgent,
    prompt: string | PromptWithParts | undefined,
    signal: AbortSignal,
  ): Promise<DoneEvent> {
    this.agent = agent;
    this.write('stderr', `${dim(this.color, STEERING_HINT)}\n`);
    emitKeypressEvents(process.stdin);
    this.take();
    try {
      return await runWithNextPrompts(agent, prompt, signal, this.pending, (line) => this.write('stderr', line));
    } finally {
      this.finish();
    }
  }

  /** The run is over: the keys go back to the terminal, and what waited is named, never dropped unsaid. */
  private finish(): void {
    this.agent = undefined;
    const typed = this.line.trim();
    this.edit('');
    this.release();
    for (const text of this.pending.splice(0)) this.write('stderr', notSentLine(text, t('queued after the last task')));
    if (typed !== '') this.write('stderr', notSentLine(typed, t('typed without Enter')));
  }

  /** The keys are read here: raw mode, so that Enter and Tab reach this editor, not the terminal's. */
  private take(): void {
    if (this.reading || this.questions > 0) return;
    this.reading = true;
    process.stdin.setRawMode(true);
    process.stdin.on('keypress', this.onKey);
    process.stdin.resume();
    if (this.line !== '') this.render();
  }

  /**
   * The keys go back (to a question, or at the end): the row is taken down with its text kept, the held
   * output written, and stdin paused so that keys typed before the question's reader starts wait for it.
   */
  private release(): void {
    if (!this.reading) return;
    this.reading = false;
    this.hide();
    process.stdin.off('keypress', this.onKey);
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }

  private readonly onKey = (text: string | undefined, key: Key | undefined): void => {
    const name = key?.name;
    // Raw mode keeps Ctrl+C from the terminal's driver: it is sent on, so it stops the task as it always has.
    if (key?.ctrl === true && name === 'c') {
      this.edit('');
      process.kill(process.pid, 'SIGINT');
    } else if (name === 'return' || name === 'enter') this.submit('steer');
    else if (name === 'tab') this.submit('next');
    else if (name === 'backspace') this.edit([...this.line].slice(0, -1).join(''));
    else if (name === 'escape' || (key?.ctrl === true && name === 'u')) this.edit('');
    else if (key?.ctrl !== true && key?.meta !== true && text !== undefined && printable(text))
      this.edit(this.line + text);
  };

  /** Enter steers the running task (a line when none runs waits for the next prompt); Tab queues it. */
  private submit(how: 'steer' | 'next'): void {
    const text = this.line.trim();
    this.edit('');
    if (text === '') return;
    if (how === 'steer' && this.agent?.steer(text) === true) {
      this.write('stderr', `${dim(this.color, `${PROMPT}${text}`)}\n`);
      return;
    }
    this.pending.push(text);
    this.write('stderr', `${dim(this.color, `next › ${text}`)}\n`);
  }

  private edit(line: string): void {
    this.line = line;
    if (line === '') this.hide();
    else this.render();
  }

  /** The typed line on its own row, the end of it where it is wider than the terminal. */
  private render(): void {
    if (!this.shown && !this.atRowStart) this.out.stderr('\n');
    this.shown = true;
    this.atRowStart = true;
    const room = Math.max(10, (process.stderr.columns || 80) - PROMPT.length - 1);
    this.out.stderr(`${ERASE_ROW}${dim(this.color, PROMPT)}${fitTail(this.line, room)}`);
  }

  /** Takes the typed line's row down and writes the output that waited for it. */
  private hide(): void {
    if (!this.shown) return;
    this.out.stderr(ERASE_ROW);
    this.shown = false;
    for (const { to, text } of this.held.splice(0)) this.write(to, text);
  }

  private write(to: 'stdout' | 'stderr', text: string): void {
    if (this.shown) {
      this.held.push({ to, text });
      return;
    }
    this.out[to](text);
    if (text !== '') this.atRowStart = text.endsWith('\n');
  }
}
