import * as vscode from 'vscode';
import type { EnvironmentFacts } from '../agent';
import { commandShellName } from '../workspace/shared/userShell';

// Where the window's agent works, for the model's `<environment_context>` (src/agent/environmentContext.ts):
// read before every request, so a folder added to the window or another default terminal profile reaches the
// model with the next one.

/** The window's folders on disk, the first one's as the working folder, and the shell commands run in. */
export function windowEnvironment(): EnvironmentFacts {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  // The shell `exec_command` runs: VS Code's default terminal profile's, as the VS Code adapter picks it.
  return { cwd: folders[0] ?? '', folders, shell: commandShellName(vscode.env.shell || undefined) };
}
