import * as vscode from 'vscode';
import * as os from 'node:os';
import { type FoundPrompts, findCustomAgents, findPromptFiles } from '../../../agent';
import { ALLOW_UNTRUSTED_KEY } from '../../settings/windowComposer';
import type { WindowSkills } from '../../settings/windowSkills';
import type { SlashPort } from '../composer/chatSlash';

// The `/` commands' window side (chatSlash.ts is the chat's): the workspace's prompt files and the skills,
// read each time the menu opens or a command is sent (a file added meanwhile is there), and `/review` as the
// command Loopwire: Review Changes. A prompt file is words a repository wrote for the agent, as its AGENTS.md
// and skills are: an untrusted workspace's are used only once the user allowed its instructions
// (windowComposer.ts), as windowSkills.ts does. A file that cannot be used is said once in the log.

/** The command `/review` runs (its own issue's: the review of the changes). */
export const REVIEW_COMMAND = 'loopwire.reviewChanges';

export function windowSlash(
  context: vscode.ExtensionContext,
  skills: WindowSkills,
  log: vscode.LogOutputChannel,
): SlashPort {
  const said = new Set<string>();
  const folders = () =>
    (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const allowed = () => vscode.workspace.isTrusted || context.workspaceState.get<boolean>(ALLOW_UNTRUSTED_KEY) === true;
  return {
    find: async () => {
      const prompts: FoundPrompts = allowed() ? await findPromptFiles(folders()) : { prompts: [], problems: [] };
      for (const { file, problem } of prompts.problems) {
        const line = `prompt file not used: ${file}: ${problem}`;
        if (said.has(line)) continue;
        said.add(line);
        log.warn(line);
      }
      return { prompts, skills: (await skills.read()).skills };
    },
    root: () => folders()[0],
    // A prompt file's `agent` names one of the agents the picker lists: the workspace's on the same terms.
    agents: async () => (await findCustomAgents(allowed() ? folders() : [], os.homedir())).agents,
    review: async (args) => {
      if (!(await vscode.commands.getCommands(true)).includes(REVIEW_COMMAND)) return false;
      await vscode.commands.executeCommand(REVIEW_COMMAND, ...(args === '' ? [] : [args]));
      return true;
    },
  };
}
