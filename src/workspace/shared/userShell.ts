import * as os from 'node:os';
import * as path from 'node:path';

// The shell the agent's commands (`exec_command`) and shell tasks that name none run in: the user's, found
// as VS Code finds the default shell of its terminals (an explicit choice, else $SHELL, else the account's
// login shell), so that a process started without $SHELL (a service, a CI job, an extension host launched by
// another program) still runs the user's bash or zsh rather than `sh`.

export interface UserShell {
  shell: string;
  /** What goes before the command line. */
  shellArgs: string[];
}

/** Where the environment and account give no usable shell. */
const FALLBACK_SHELL = '/bin/sh';

/**
 * The user's shell and how it is given one command line. `chosen` is a shell picked elsewhere (VS Code's
 * default terminal profile); on POSIX it wins over $SHELL. Windows runs `cmd.exe` (ComSpec) whatever is chosen.
 */
export function userShell(chosen?: string, env: NodeJS.ProcessEnv = process.env): UserShell {
  if (process.platform === 'win32') return { shell: env['ComSpec'] ?? 'cmd.exe', shellArgs: ['/d', '/s', '/c'] };
  const shell = [chosen, env['SHELL'], loginShell()].find((candidate) => candidate && canRunCommands(candidate));
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

/** Accounts without a login have `false` or `nologin` as their shell: they refuse every command. */
function canRunCommands(shell: string): boolean {
  return !/^(false|nologin)$/.test(path.basename(shell));
}
