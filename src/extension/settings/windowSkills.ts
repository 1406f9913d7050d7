import * as os from 'node:os';
import * as vscode from 'vscode';
import { type FoundSkills, findSkills } from '../../agent';
import { ALLOW_UNTRUSTED_KEY } from './windowComposer';

// The window's skills (src/agent/skills): the user's, and the workspace folders' where the workspace's
// instruction files may be sent — a trusted workspace, or an untrusted one the user allowed (windowComposer.ts):
// a skill is instructions a repository wrote for the agent, as its AGENTS.md is. Read at each agent's start
// and each task's; a SKILL.md that cannot be used is said once a window in the Loopwire output log, with its
// file and why.

export class WindowSkills {
  private readonly said = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The skills now, each problem not yet logged logged. */
  async read(): Promise<FoundSkills> {
    const allowed =
      vscode.workspace.isTrusted || this.context.workspaceState.get<boolean>(ALLOW_UNTRUSTED_KEY) === true;
    const folders = allowed
      ? (vscode.workspace.workspaceFolders ?? [])
          .filter((folder) => folder.uri.scheme === 'file')
          .map((folder) => ({ path: folder.uri.fsPath, name: folder.name }))
      : [];
    const found = await findSkills(folders, os.homedir());
    for (const { file, problem } of found.problems) {
      const line = `skill not used: ${file}: ${problem}`;
      if (this.said.has(line)) continue;
      this.said.add(line);
      this.log.warn(line);
    }
    return found;
  }
}
