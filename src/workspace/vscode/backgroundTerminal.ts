import * as vscode from 'vscode';
import type { CommandProcess, TaskRun } from '../workspace';
import { startTaskProcess } from '../shared/commandProcess';
import type { CommandProcessStarter } from '../shared/diskFolder';
import { OutputTail, TASK_OUTPUT_TAIL_BYTES, finishedRun } from '../shared/outputTail';
import { COMMAND_TERMINAL_NAME } from './commandTerminal';

// Runs a command that may go on in the background (the port's `startCommand`, exec_command's sessions) in a
// Loopwire terminal of its own, a pseudoterminal. Not the shell-integration path of commandTerminal.ts: there
// the command is typed into an interactive shell, and the API reaches neither its standard input nor its
// process group alone; here this window owns the process (a child in its own group, as the Node adapter runs
// it), so write_stdin reaches it and Stop ends everything it started. The terminal shows what it prints, and
// closing the terminal stops it.

/** Terminals show CRLF line ends; a process prints LF. */
const forTerminal = (text: string) => text.replace(/\r?\n/g, '\r\n');

/**
 * Starts each session command in a new Loopwire pseudoterminal, never shown or focused by Loopwire;
 * `onFinished` hears each one's end with what it printed, as the command terminal's runs (`@terminal`).
 */
export function backgroundTerminalStarter(onFinished?: (command: string, run: TaskRun) => void): CommandProcessStarter {
  return (spec, timeoutMs) => {
    const terminal = new BackgroundTerminal(spec.detail);
    const decoder = new TextDecoder();
    const printed = new OutputTail();
    const started = Date.now();
    const session = startTaskProcess(spec, timeoutMs, (chunk) => {
      printed.push(chunk);
      terminal.write(forTerminal(decoder.decode(chunk, { stream: true })));
    });
    terminal.attach(session);
    void session.ended.then((end) => {
      const note = end.timedOut ? 'stopped at its timeout' : `exit code ${end.exitCode ?? '? (stopped)'}`;
      terminal.write(`\r\n\u001b[2m(${note})\u001b[0m\r\n`);
      const line = spec.run.kind === 'shell' ? spec.run.line : [spec.run.file, ...spec.run.args].join(' ');
      onFinished?.(line, finishedRun(printed, end.exitCode, end.timedOut, started));
    });
    return session;
  };
}

class BackgroundTerminal {
  private readonly output = new vscode.EventEmitter<string>();
  private opened = false;
  /** What is written before VS Code opens the terminal (it opens it when the user first looks) is kept. */
  private pending = '';
  private session: CommandProcess | undefined;

  constructor(line: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.output.event,
      open: () => {
        this.opened = true;
        if (this.pending !== '') this.output.fire(this.pending);
        this.pending = '';
      },
      // The user closed it: what it shows the output of goes with it.
      close: () => void this.session?.stop(),
    };
    vscode.window.createTerminal({ name: COMMAND_TERMINAL_NAME, pty, isTransient: true });
    this.write(`\u001b[2m> ${forTerminal(line)}\u001b[0m\r\n`);
  }

  attach(session: CommandProcess): void {
    this.session = session;
  }

  write(text: string): void {
    if (this.opened) this.output.fire(text);
    else this.pending = (this.pending + text).slice(-TASK_OUTPUT_TAIL_BYTES);
  }
}
