import type { EditPlan } from '../../edit';
import type { Workspace } from '../../workspace';
import type { CheckpointJournal, JournalWrite } from './checkpointJournal';

// The Workspace port as the agent's tools get it in a chat: the same port, with every plan it applies kept
// in the checkpoint journal — each file's text before and after, exactly as the plan has them (the adapter
// refuses a plan whose files changed since it was computed, so `before` is what was there). The journal sees
// only what the edit tools write through this port; commands and tasks pass through unjournaled.

/** `workspace`, with the plans applied through it recorded in `journal`. */
export function journaledWorkspace(workspace: Workspace, journal: CheckpointJournal): Workspace {
  const start = workspace.startCommand?.bind(workspace);
  return {
    get name() {
      return workspace.name;
    },
    get capabilities() {
      return workspace.capabilities;
    },
    locate: (path) => workspace.locate(path),
    readFile: (path) => workspace.readFile(path),
    tryReadFile: (path) => workspace.tryReadFile(path),
    async applyPlan(plan) {
      const writes = await journalWrites(workspace, plan);
      const applied = await workspace.applyPlan(plan);
      journal.record(writes);
      return applied;
    },
    findFiles: (glob, maxResults) => workspace.findFiles(glob, maxResults),
    searchText: (query) => workspace.searchText(query),
    diagnostics: (path) => workspace.diagnostics(path),
    listTasks: () => workspace.listTasks(),
    runTask: (label, timeoutMs, options) => workspace.runTask(label, timeoutMs, options),
    runCommand: (command, options) => workspace.runCommand(command, options),
    // Only where the adapter has it: its absence is what tells exec_command to run to the end.
    ...(start ? { startCommand: start } : {}),
  };
}

/** What `plan` does to each file, by canonical path: a move is its source gone and its destination written. */
async function journalWrites(workspace: Workspace, plan: EditPlan): Promise<JournalWrite[]> {
  const writes: JournalWrite[] = [];
  for (const file of plan.files) {
    if (file.noop) continue;
    const source = canonical(workspace, file.path);
    // A path the adapter refuses is refused again by applyPlan, which says why: nothing to journal.
    if (source === undefined) return [];
    if (file.op === 'move') {
      const target = canonical(workspace, file.moveTo ?? file.path);
      if (target === undefined) return [];
      const there = await workspace.tryReadFile(target).catch(() => undefined);
      writes.push({ path: source, before: file.before, after: null });
      writes.push({ path: target, before: there?.text ?? null, after: file.after });
    } else writes.push({ path: source, before: file.op === 'create' ? null : file.before, after: file.after });
  }
  return writes;
}

function canonical(workspace: Workspace, path: string): string | undefined {
  try {
    return workspace.locate(path).path;
  } catch {
    return undefined;
  }
}
