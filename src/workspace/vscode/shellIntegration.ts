import * as path from 'node:path';
import * as vscode from 'vscode';

// VS Code's terminal shell integration API, which came in VS Code 1.93 (`Terminal.shellIntegration`,
// `TerminalShellIntegration.executeCommand`, `TerminalShellExecution.read()` and the window's
// `onDidChangeTerminalShellIntegration`, `onDidStartTerminalShellExecution`, `onDidEndTerminalShellExecution`).
// `engines.vscode` is ^1.90 and @types/vscode 1.90 does not declare it, so these narrow interfaces declare
// the part Loopwire uses and `shellIntegrationApi()` finds it at run time: VS Code 1.93 and later get it,
// 1.90–1.92 get undefined (and commands run in a pseudoterminal instead, commandTerminal.ts).

export interface ShellExecution {
  /** What the command prints, from the first call on (call it at once), with terminal escape sequences. */
  read(): AsyncIterable<string>;
}

export interface ShellIntegration {
  /** The shell's current folder, where the shell reports it. */
  readonly cwd: vscode.Uri | undefined;
  executeCommand(commandLine: string): ShellExecution;
}

export interface ShellExecutionEvent {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}

export interface ShellExecutionEndEvent extends ShellExecutionEvent {
  /** undefined where the shell did not report one. */
  readonly exitCode: number | undefined;
}

export interface ShellIntegrationApi {
  readonly onDidChangeTerminalShellIntegration: vscode.Event<{ readonly terminal: vscode.Terminal }>;
  readonly onDidStartTerminalShellExecution: vscode.Event<ShellExecutionEvent>;
  readonly onDidEndTerminalShellExecution: vscode.Event<ShellExecutionEndEvent>;
  /** The terminal's shell integration once it has started; undefined before and without it. */
  integration(terminal: vscode.Terminal): ShellIntegration | undefined;
}

type MaybeEvent<T> = vscode.Event<T> | undefined;

/** The API where this VS Code has it (1.93+), else undefined. */
export function shellIntegrationApi(): ShellIntegrationApi | undefined {
  // `terminals` (which 1.90 has) keeps these types from being all optional, which TypeScript would refuse.
  const window: {
    readonly terminals: readonly vscode.Terminal[];
    onDidChangeTerminalShellIntegration?: MaybeEvent<{ readonly terminal: vscode.Terminal }>;
    onDidStartTerminalShellExecution?: MaybeEvent<ShellExecutionEvent>;
    onDidEndTerminalShellExecution?: MaybeEvent<ShellExecutionEndEvent>;
  } = vscode.window;
  const changed = window.onDidChangeTerminalShellIntegration;
  const started = window.onDidStartTerminalShellExecution;
  const ended = window.onDidEndTerminalShellExecution;
  if (typeof changed !== 'function' || typeof started !== 'function' || typeof ended !== 'function') return undefined;
  return {
    onDidChangeTerminalShellIntegration: changed,
    onDidStartTerminalShellExecution: started,
    onDidEndTerminalShellExecution: ended,
    integration: (terminal) => {
      const withIntegration: { readonly name: string; shellIntegration?: ShellIntegration | undefined } = terminal;
      const found = withIntegration.shellIntegration;
      return typeof found?.executeCommand === 'function' ? found : undefined;
    },
  };
}

/**
 * Whether commands for `shell` can go through its interactive session: a POSIX shell (its quoting and
 * `< /dev/null` are what `terminalCommandLine` writes) that VS Code injects shell integration into. `sh`,
 * dash, ksh (no integration) and cmd run in the pseudoterminal; fish and PowerShell are never chosen (userShell.ts).
 */
export function integratesShell(shell: string): boolean {
  return process.platform !== 'win32' && /^(bash|zsh)$/.test(path.basename(shell));
}

/** `text` as one POSIX shell word: single quotes, or `$'…'` (bash, zsh) where it holds control characters. */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  if (![...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return `'${text.replace(/'/g, `'\\''`)}'`;
  const escaped = [...text]
    .map((char) => {
      const code = char.charCodeAt(0);
      if (char === '\\' || char === "'") return `\\${char}`;
      if (char === '\n') return '\\n';
      if (char === '\t') return '\\t';
      if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
      return char;
    })
    .join('');
  return `$'${escaped}'`;
}

/**
 * The line typed into the terminal for `command`: run by `shell -c` as the Node adapter runs it (the same
 * parsing and errors, whatever the line holds, and the interactive shell is never left inside an open quote),
 * on one line (so shell integration reports it as typed), with end of file on its standard input.
 */
export function terminalCommandLine(shell: string, command: string): string {
  return `${shellWord(shell)} -c ${shellWord(command)} < /dev/null`;
}
