import * as vscode from 'vscode';
import type { TaskRun } from '../workspace';
import type { TaskRunner } from '../shared/diskFolder';
import { OutputTail, TASK_OUTPUT_TAIL_BYTES, finishedRun } from '../shared/outputTail';
import type { TaskSpec } from '../shared/taskDiscovery';
import { runTaskProcess } from '../shared/taskProcess';
import { stopBelow } from './processTree';
import {
  type ShellExecution,
  type ShellIntegrationApi,
  integratesShell,
  shellIntegrationApi,
  shellWord,
  terminalCommandLine,
} from './shellIntegration';

// Runs the agent's shell commands (`exec_command`) in terminals named "Loopwire" that the user can open and
// watch; like tasks (terminalTaskRunner.ts), they are never shown or focused by Loopwire.
//
// Two ways, chosen per command:
// - Shell integration (VS Code 1.93 and later, bash or zsh, not Windows): the command line is typed into an
//   interactive shell with `executeCommand`, as `SHELL -c 'CMD' < /dev/null` (the same parsing as the Node
//   adapter, end of file on stdin); its output comes from `execution.read()` and its exit code from
//   `onDidEndTerminalShellExecution`. A timeout stops every process group below the shell (SIGTERM, then
//   SIGKILL), and the terminal is disposed if the shell does not come back. Idle terminals are reused (as
//   many as commands run at once; `cd` first where the shell is elsewhere); one the user is running
//   something in is left alone.
// - A pseudoterminal otherwise (a command confined by the OS sandbox, VS Code 1.90–1.92, other shells, shell
//   integration turned off or not started within a few seconds): the command runs as a child process in its
//   own group (runTaskProcess, as tasks do) and the terminal shows what it prints.

export const COMMAND_TERMINAL_NAME = 'Loopwire';

export type CommandPath = 'shell-integration' | 'pseudoterminal';

export interface CommandTerminalOptions {
  /** false: always the pseudoterminal (tests). Default: shell integration where VS Code and the shell have it. */
  shellIntegration?: boolean;
  /** How long a new terminal's shell integration may take to start before the pseudoterminal is used. */
  shellIntegrationWaitMs?: number;
  /** Told which way each command runs (tests, logs). */
  onRun?: (path: CommandPath) => void;
  /** Told of each command once it ended, with what it printed (the chat's `@terminal` attaches the last). */
  onFinished?: (command: string, run: TaskRun) => void;
}

/** A new terminal whose shell integration has not started by then is disposed. */
const LATE_INTEGRATION_MS = 30_000;
/** New terminals of a shell that may fail to start their integration before its commands keep to the pseudoterminal. */
const SHELL_TRIES = 3;
/** After a timeout's SIGKILL, how long the shell gets to report the end before its terminal is disposed. */
const END_AFTER_STOP_MS = 1500;
/** After the end of a command, how long its output stream gets to deliver what is left. */
const DRAIN_MS = 500;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Terminals show CRLF line ends; a process prints LF. */
const forTerminal = (text: string) => text.replace(/\r?\n/g, '\r\n');

interface ShellSlot {
  kind: 'shell';
  terminal: vscode.Terminal;
  shell: string;
  cwd: string;
  env: string;
  busy: boolean;
}

interface PtySlot {
  kind: 'pty';
  terminal: vscode.Terminal;
  busy: boolean;
  write(text: string): void;
}

type Slot = ShellSlot | PtySlot;

/** The Loopwire terminals of this window, shared by every workspace adapter. */
class CommandTerminals {
  private readonly slots: Slot[] = [];
  /** Shells whose integration did not start in time: their commands use the pseudoterminal until one does. */
  private readonly noIntegration = new Set<string>();
  /** How many new terminals of each shell never started their integration. */
  private readonly failedShells = new Map<string, number>();
  /** Shell executions running in each terminal (ours and the user's). */
  private readonly running = new Map<vscode.Terminal, number>();
  private tracking = false;

  constructor() {
    vscode.window.onDidCloseTerminal((terminal) => {
      const at = this.slots.findIndex((slot) => slot.terminal === terminal);
      if (at >= 0) this.slots.splice(at, 1);
      this.running.delete(terminal);
    });
  }

  async run(spec: TaskSpec, timeoutMs: number, options: CommandTerminalOptions): Promise<TaskRun> {
    // A confined command is a child this window spawns inside the sandbox: never typed into a user's shell.
    const api = options.shellIntegration === false || spec.confinement ? undefined : shellIntegrationApi();
    const shell = spec.run.kind === 'shell' ? spec.run.shell : undefined;
    if (api && shell !== undefined && spec.run.kind === 'shell' && integratesShell(shell)) {
      this.track(api);
      const slot =
        this.idleShell(api, shell, spec) ??
        (this.noIntegration.has(shell)
          ? undefined
          : await this.newShell(api, shell, spec, options.shellIntegrationWaitMs ?? 3000));
      if (slot) {
        try {
          options.onRun?.('shell-integration');
          // A reused terminal may be elsewhere: its shell changes folder first, in the same line.
          const move = this.folderOf(api, slot) === spec.cwd ? '' : `builtin cd -- ${shellWord(spec.cwd)} && `;
          slot.cwd = spec.cwd;
          return await this.runInShell(api, slot, move + terminalCommandLine(shell, spec.run.line), timeoutMs);
        } finally {
          slot.busy = false;
        }
      }
    }
    const slot = this.idlePty() ?? this.newPty();
    try {
      options.onRun?.('pseudoterminal');
      return await this.runInPty(slot, spec, timeoutMs);
    } finally {
      slot.busy = false;
    }
  }

  /** Counts the executions of every terminal, so that one the user is running something in is not reused. */
  private track(api: ShellIntegrationApi): void {
    if (this.tracking) return;
    this.tracking = true;
    api.onDidStartTerminalShellExecution(({ terminal }) =>
      this.running.set(terminal, (this.running.get(terminal) ?? 0) + 1),
    );
    api.onDidEndTerminalShellExecution(({ terminal }) =>
      this.running.set(terminal, Math.max(0, (this.running.get(terminal) ?? 0) - 1)),
    );
    api.onDidChangeTerminalShellIntegration(({ terminal }) => {
      const slot = this.slots.find((s) => s.terminal === terminal);
      if (slot?.kind === 'shell') this.noIntegration.delete(slot.shell);
    });
  }

  /** An idle terminal of `shell`, one already in the command's folder first; its shell moves there if not. */
  private idleShell(api: ShellIntegrationApi, shell: string, spec: TaskSpec): ShellSlot | undefined {
    const env = JSON.stringify(spec.env);
    const idle = this.slots.filter((s): s is ShellSlot => {
      if (s.kind !== 'shell' || s.busy || s.shell !== shell || s.env !== env) return false;
      if ((this.running.get(s.terminal) ?? 0) > 0 || s.terminal.exitStatus !== undefined) return false;
      return api.integration(s.terminal) !== undefined;
    });
    const slot = idle.find((s) => this.folderOf(api, s) === spec.cwd) ?? idle[0];
    if (slot) slot.busy = true;
    return slot;
  }

  /** Where the terminal's shell is: as the shell reports it, else where it was started or last sent. */
  private folderOf(api: ShellIntegrationApi, slot: ShellSlot): string {
    return api.integration(slot.terminal)?.cwd?.fsPath ?? slot.cwd;
  }

  /** A new terminal running `shell` in the command's folder, once its shell integration has started. */
  private async newShell(
    api: ShellIntegrationApi,
    shell: string,
    spec: TaskSpec,
    waitMs: number,
  ): Promise<ShellSlot | undefined> {
    const terminal = vscode.window.createTerminal({
      name: COMMAND_TERMINAL_NAME,
      cwd: spec.cwd,
      shellPath: shell,
      ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}),
      isTransient: true,
    });
    const slot: ShellSlot = {
      kind: 'shell',
      terminal,
      shell,
      cwd: spec.cwd,
      env: JSON.stringify(spec.env),
      busy: true,
    };
    this.slots.push(slot);
    if (await this.integrationStarts(api, terminal, waitMs)) return slot;
    // Not now: this command and the next ones use the pseudoterminal. If it starts later after all, the
    // terminal is there for the next command (idle); if it never does, the terminal goes, and a later command
    // tries a new shell (a window busy starting may do better then), up to SHELL_TRIES times in all.
    this.noIntegration.add(shell);
    slot.busy = false;
    void this.integrationStarts(api, terminal, LATE_INTEGRATION_MS).then((late) => {
      if (late) return;
      terminal.dispose();
      const failed = (this.failedShells.get(shell) ?? 0) + 1;
      this.failedShells.set(shell, failed);
      if (failed < SHELL_TRIES) this.noIntegration.delete(shell);
    });
    return undefined;
  }

  private integrationStarts(api: ShellIntegrationApi, terminal: vscode.Terminal, waitMs: number): Promise<boolean> {
    if (api.integration(terminal)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (started: boolean) => {
        clearTimeout(timer);
        changed.dispose();
        closed.dispose();
        resolve(started);
      };
      const timer = setTimeout(() => done(false), waitMs);
      const changed = api.onDidChangeTerminalShellIntegration((event) => {
        if (event.terminal === terminal && api.integration(terminal)) done(true);
      });
      const closed = vscode.window.onDidCloseTerminal((gone) => gone === terminal && done(false));
    });
  }

  private runInShell(api: ShellIntegrationApi, slot: ShellSlot, line: string, timeoutMs: number): Promise<TaskRun> {
    const integration = api.integration(slot.terminal);
    if (!integration) throw new Error('The Loopwire terminal lost its shell integration.');
    const started = Date.now();
    const tail = new OutputTail();
    return new Promise<TaskRun>((resolve) => {
      let timedOut = false;
      let settled = false;
      let ended: (exitCode: number | undefined) => void = () => undefined;
      const end = new Promise<number | undefined>((resolveEnd) => (ended = resolveEnd));
      // The execution VS Code runs our line as: the one executeCommand returned, or, where the command line the
      // shell reported did not match the one sent, one VS Code made itself (in a window whose server started
      // without LANG, the first terminal reported "/u" for a whole line). The terminal is ours while it is
      // busy, so an execution that starts in it before ours does is our command.
      let ownStarted = false;
      let adopted: ShellExecution | undefined;
      const readings: Promise<void>[] = [];
      const readFrom = (source: ShellExecution) =>
        readings.push(
          (async () => {
            for await (const data of source.read()) tail.push(Buffer.from(data));
          })().catch(() => undefined),
        );
      const finish = async (exitCode: number | null, note?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const listener of listeners) listener.dispose();
        await Promise.race([Promise.all(readings), delay(DRAIN_MS)]);
        if (note !== undefined) tail.push(Buffer.from(note));
        resolve(finishedRun(tail, exitCode, timedOut, started));
      };
      const listeners = [
        api.onDidStartTerminalShellExecution((event) => {
          if (event.terminal !== slot.terminal || ownStarted || adopted) return;
          if (event.execution === execution) ownStarted = true;
          else readFrom((adopted = event.execution));
        }),
        api.onDidEndTerminalShellExecution((event) => {
          if (event.terminal !== slot.terminal) return;
          if (event.execution !== execution && event.execution !== adopted) return;
          ended(event.exitCode);
          if (!timedOut) void finish(event.exitCode ?? null);
        }),
        vscode.window.onDidCloseTerminal((terminal) => {
          if (terminal === slot.terminal) void finish(null, '\n(the Loopwire terminal was closed)\n');
        }),
      ];
      const timer = setTimeout(() => {
        timedOut = true;
        void this.stop(slot.terminal, end).then(() => finish(null));
      }, timeoutMs);
      // Read at once, as the API asks: VS Code keeps an execution's output only for streams that exist when it
      // arrives. Read from the start event instead, the output of a quick command could come in the same
      // batch of messages as its start, before the stream was listening (`echo hi` then showed no output
      // in code-server, whose messages cross a WebSocket).
      const execution = integration.executeCommand(line);
      readFrom(execution);
    });
  }

  /**
   * Stops the command running in `terminal`: every process group below its shell, SIGTERM then SIGKILL;
   * where that cannot be done or the shell does not report the end, Ctrl+C and the terminal is disposed
   * (its shell gets SIGHUP and passes it to its jobs).
   */
  private async stop(terminal: vscode.Terminal, end: Promise<unknown>): Promise<void> {
    const pid = await Promise.race([terminal.processId, delay(1000).then(() => undefined)]);
    const stopped = pid !== undefined && (await stopBelow(pid));
    const reported =
      stopped && (await Promise.race([end.then(() => true), delay(END_AFTER_STOP_MS).then(() => false)]));
    if (!reported) {
      terminal.sendText('\u0003', false);
      terminal.dispose();
    }
  }

  private idlePty(): PtySlot | undefined {
    const slot = this.slots.find((s): s is PtySlot => s.kind === 'pty' && !s.busy);
    if (slot) slot.busy = true;
    return slot;
  }

  private newPty(): PtySlot {
    const write = new vscode.EventEmitter<string>();
    let opened = false;
    // What is written before VS Code opens the terminal (it opens it when the user first looks) is kept.
    let pending = '';
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        opened = true;
        if (pending !== '') write.fire(pending);
        pending = '';
      },
      close: () => undefined,
    };
    const terminal = vscode.window.createTerminal({ name: COMMAND_TERMINAL_NAME, pty, isTransient: true });
    const slot: PtySlot = {
      kind: 'pty',
      terminal,
      busy: true,
      write: (text) => {
        if (opened) write.fire(text);
        else pending = (pending + text).slice(-TASK_OUTPUT_TAIL_BYTES);
      },
    };
    this.slots.push(slot);
    return slot;
  }

  private async runInPty(slot: PtySlot, spec: TaskSpec, timeoutMs: number): Promise<TaskRun> {
    slot.write(`\u001b[2m> ${forTerminal(spec.detail)}\u001b[0m\r\n`);
    const decoder = new TextDecoder();
    const run = await runTaskProcess(spec, timeoutMs, (chunk) =>
      slot.write(forTerminal(decoder.decode(chunk, { stream: true }))),
    );
    const note = run.timedOut ? `stopped after ${Math.round(timeoutMs / 1000)} s` : `exit code ${run.exitCode ?? '?'}`;
    slot.write(`\r\n\u001b[2m(${note})\u001b[0m\r\n\r\n`);
    return run;
  }
}

let terminals: CommandTerminals | undefined;

/** Runs shell commands (DiskFolder's `runCommand`) in the Loopwire terminals. */
export function commandTerminalRunner(options: CommandTerminalOptions = {}): TaskRunner {
  return async (spec, timeoutMs) => {
    const run = await (terminals ??= new CommandTerminals()).run(spec, timeoutMs, options);
    options.onFinished?.(spec.run.kind === 'shell' ? spec.run.line : [spec.run.file, ...spec.run.args].join(' '), run);
    return run;
  };
}
