import * as vscode from 'vscode';
import type { EnvironmentFacts } from '../../agent';
import { commandShellName } from '../../workspace/shared/userShell';

// Where the window's agent works, for the model's `<environment_context>` (src/agent/instructions/environmentContext.ts):
// read before every request, so a folder added to the window or another default terminal profile reaches the
// model with the next one. The facts are kept between requests and read again only when VS Code says the
// folders or the default shell changed, or $SHELL did (the shell's name: finding the account's login shell
// reads the password database, too slow for every request).

let facts: { env: string | undefined; facts: EnvironmentFacts } | undefined;
let watching = false;

/** The window's folders on disk, the first one's as the working folder, and the shell commands run in. */
export function windowEnvironment(): EnvironmentFacts {
  watchChanges();
  const env = process.env['SHELL'];
  if (facts === undefined || facts.env !== env) facts = { env, facts: readFacts() };
  return facts.facts;
}

function readFacts(): EnvironmentFacts {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  // The shell `exec_command` runs: VS Code's default terminal profile's, as the VS Code adapter picks it.
  return { cwd: folders[0] ?? '', folders, shell: commandShellName(vscode.env.shell || undefined) };
}

/** Forgets the facts when VS Code changes them: both events come with the new value already in place. */
function watchChanges(): void {
  if (watching) return;
  watching = true;
  const forget = () => (facts = undefined);
  // For the extension host's life, as the module's cache is: nothing to dispose before it ends.
  vscode.workspace.onDidChangeWorkspaceFolders(forget);
  vscode.env.onDidChangeShell(forget);
}
