import { t } from '@vscode/l10n';
import * as vscode from 'vscode';
import { worktreeAt, worktreeConfinement } from '../../agent';
import type { TaskRun, Workspace } from '../../workspace';
import { MultiRootWorkspace } from '../../workspace/multiRootWorkspace';
import type { CommandPath } from '../../workspace/vscode/commandTerminal';
import { VscodeWorkspace } from '../../workspace/vscode/vscodeWorkspace';
import { readSettings } from '../settings/settings';

// The window's workspace as the agent's tools get it: one folder's VS Code adapter, or every folder's behind
// their names (multi-root), each saving after an edit as its folder's settings say.

/** How a shell command ran, for the log (where the user looks when a command's output is not what they expect). */
const RUN_WAY: Record<CommandPath, string> = {
  'shell-integration': 'by shell integration',
  pseudoterminal: 'as a child process shown in a pseudoterminal (no shell integration in time)',
};

/** Opens the window's workspace; `finished` hears each command that ended (the chat's `@terminal`). */
export async function openWindowWorkspace(
  log: vscode.LogOutputChannel,
  finished: (command: string, run: TaskRun) => void,
): Promise<Workspace> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new Error(t('Open a folder first: Loopwire works on a workspace folder.'));
  const open = async (folder: vscode.WorkspaceFolder) =>
    VscodeWorkspace.open(folder.uri, {
      saveAfterEdit: readSettings(folder).saveAfterEdit,
      confinement: await worktreeExtras(folder, log),
      commandTerminal: {
        onRun: (way) => log.info(`exec_command: in the Loopwire terminal, ${RUN_WAY[way]}`),
        onFinished: finished,
      },
    });
  if (folders.length === 1) return open(folders[0] as vscode.WorkspaceFolder);
  const roots = await Promise.all(
    folders.map(async (folder) => ({ name: folder.name, workspace: await open(folder) })),
  );
  return new MultiRootWorkspace(roots);
}

/**
 * A folder that is a worktree Loopwire made gets its task sandbox (the worktree's own git folder writable, as
 * `loopwire exec --worktree` has it); any other folder, nothing more than the policy's.
 */
async function worktreeExtras(folder: vscode.WorkspaceFolder, log: vscode.LogOutputChannel) {
  if (folder.uri.scheme !== 'file') return undefined;
  const record = await worktreeAt(folder.uri.fsPath).catch(() => undefined);
  if (record === undefined) return undefined;
  log.info(`worktree ${record.name}: its git folder ${record.gitDir} is writable by the sandbox's commands`);
  return worktreeConfinement(record);
}
