import * as os from 'node:os';
import * as path from 'node:path';

// The shell the agent's commands (`exec_command`) and shell tasks that name none run in: the user's, found
// as VS Code finds the default shell of its terminals (an explicit choice, else $SHELL, else the account's
// login shell), so that a process started without $SHELL (a service, a CI job, an extension host launched by
// another program) still runs the user's bash or zsh rather than `sh`. Only POSIX shells are taken: the model
// writes its commands for one (Codex's tools run them in bash or zsh), and fish or PowerShell as the
// terminal's shell would parse them otherwise.

export interface UserShell {
  shell: string;
  /** What goes before the command line. */
  shellArgs: string[];
}

/** Where the environment and account give no POSIX shell. */
const FALLBACK_SHELL = '/bin/sh';

/**
 * The user's shell and how it is given one command line. `chosen` is a shell picked elsewhere (VS Code's
 * default terminal profile); on POSIX it wins over $SHELL. Windows runs `cmd.exe` (ComSpec) whatever is chosen.
 */
export function userShell(chosen?: string, env: NodeJS.ProcessEnv = process.env): UserShell {
  if (process.platform === 'win32') return { shell: env['ComSpec'] ?? 'cmd.exe', shellArgs: ['/d', '/s', '/c'] };
  const shell = [chosen, env['SHELL'], loginShell()].find((candidate) => candidate && isPosixShell(candidate));
  return { shell: shell ?? FALLBACK_SHELL, shellArgs: ['-c'] };
}

/** The account's login shell (from the password database), if it has one. */
function loginShell(): string | undefined {
  try {
    return os.userInfo().shell ?? undefined;
  } catch {
    return undefined; // No entry for this uid (a container's arbitrary user).
  }
}

/**
 * A shell that takes the model's commands as written: the POSIX family. Not `false` or `nologin` (accounts
 * without a login refuse every command), nor fish, PowerShell or nushell (another language).
 */
function isPosixShell(shell: string): boolean {
  return /^(bash|zsh|sh|dash|ksh|ksh93|mksh|ash)$/.test(path.basename(shell));
}

/** The name of the shell a command runs in (`bash`, `zsh`, `cmd.exe`): what the model is told to write for. */
export function commandShellName(chosen?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.basename(userShell(chosen, env).shell);
}
