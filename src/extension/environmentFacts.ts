import * as vscode from 'vscode';
import type { EnvironmentFacts } from '../agent';
import { commandShellName } from '../workspace/shared/userShell';

// Where the window's agent works, for the model's `<environment_context>` (src/agent/environmentContext.ts):
// read before every request, so a folder added to the window or another default terminal profile reaches the
// model with the next one. The shell's name is worked out again only when the profile's shell or $SHELL
// changed (finding the account's login shell reads the password database: too slow for every request).

let shell: { chosen: string | undefined; env: string | undefined; name: string } | undefined;

/** The name of the shell commands run in, for the profile's `chosen` shell. */
function shellName(chosen: string | undefined): string {
  const env = process.env['SHELL'];
  if (shell === undefined || shell.chosen !== chosen || shell.env !== env)
    shell = { chosen, env, name: commandShellName(chosen) };
  return shell.name;
}

/** The window's folders on disk, the first one's as the working folder, and the shell commands run in. */
export function windowEnvironment(): EnvironmentFacts {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  // The shell `exec_command` runs: VS Code's default terminal profile's, as the VS Code adapter picks it.
  return { cwd: folders[0] ?? '', folders, shell: shellName(vscode.env.shell || undefined) };
}
