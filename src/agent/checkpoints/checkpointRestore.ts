import { t } from '@vscode/l10n';
import { type FilePlan, deleteEntry, makePlan, planWrite } from '../../edit';
import type { Workspace } from '../../workspace';
import type { CheckpointJournal, RestoreTarget } from './checkpointJournal';

// Restore: the files the agent wrote since a checkpoint go back to how they were then, as one plan the
// adapter applies all at once (one WorkspaceEdit in VS Code: one undo step). Nothing of the user's is lost:
// a file that is not what the agent last wrote (the user edited it since, in a buffer or on disk) is left as
// it is and listed, with the text it would go back to, for a diff. A file the agent created is deleted, one
// it deleted comes back, a move is undone both ways (its destination goes, its source comes back). No git.

/** A file put back. */
export interface RestoredFile {
  path: string;
  how: 'rewritten' | 'deleted' | 'recreated';
}

/** A file left alone: the user changed it after the agent's last write. */
export interface KeptFile {
  path: string;
  /** Why, in words the panel shows (the person's language: the model never reads it). */
  why: string;
  /** What Restore would have put there (null: it would have deleted it), for the diff against the file now. */
  target: string | null;
}

export interface RestorePlan {
  files: FilePlan[];
  restored: RestoredFile[];
  kept: KeptFile[];
  /** Tools run since the checkpoint whose effects were not journaled (commands, tasks): not undone. */
  unjournaled: string[];
}

/** What a Restore of checkpoint `id` would do to the files as they are now. */
export async function planRestore(journal: CheckpointJournal, id: string, workspace: Workspace): Promise<RestorePlan> {
  const plan: RestorePlan = { files: [], restored: [], kept: [], unjournaled: journal.unjournaledSince(id) };
  for (const target of journal.targets(id)) {
    let now: string | undefined;
    try {
      now = (await workspace.tryReadFile(target.path))?.text;
    } catch (error) {
      // A file that can no longer be read as text (now binary, now a folder) is not the agent's any more.
      plan.kept.push({
        path: target.path,
        why: t('it can no longer be read ({0})', messageOf(error)),
        target: target.target,
      });
      continue;
    }
    const why = changedSince(target, now);
    if (why !== undefined) {
      plan.kept.push({ path: target.path, why, target: target.target });
      continue;
    }
    if (now === (target.target ?? undefined)) continue;
    if (target.target === null) {
      plan.files.push(deleteEntry(target.path, { text: now ?? '' }));
      plan.restored.push({ path: target.path, how: 'deleted' });
    } else if (now === undefined) {
      plan.files.push(...planWrite(target.path, target.target, undefined).files);
      plan.restored.push({ path: target.path, how: 'recreated' });
    } else {
      plan.files.push(rewrite(target.path, now, target.target));
      plan.restored.push({ path: target.path, how: 'rewritten' });
    }
  }
  return plan;
}

/**
 * Restores checkpoint `id`: applies the plan (all or nothing: a file changed meanwhile refuses it whole,
 * and nothing is written), then the journal forgets the files put back. Returns what it did.
 */
export async function restoreCheckpoint(
  journal: CheckpointJournal,
  id: string,
  workspace: Workspace,
): Promise<RestorePlan> {
  const plan = await planRestore(journal, id, workspace);
  if (plan.files.length > 0) await workspace.applyPlan(makePlan(plan.files));
  journal.restored(
    id,
    plan.restored.map((file) => file.path),
  );
  return plan;
}

/** Why the file is not the agent's last write any more, or undefined when it still is. */
function changedSince(target: RestoreTarget, now: string | undefined): string | undefined {
  if (target.expected === null) {
    if (now === undefined) return undefined;
    return target.target === null
      ? t('it was created again after Loopwire deleted it')
      : t('a file is there again after Loopwire deleted or moved it');
  }
  if (now === undefined) return t('it was deleted after Loopwire wrote it');
  if (now === target.expected) return undefined;
  return target.target === null
    ? t('Loopwire created it and it was edited since')
    : t('it was edited after Loopwire last wrote it');
}

/** The plan entry that turns `now` into exactly `text` (every byte: line endings and a BOM as they were). */
function rewrite(path: string, now: string, text: string): FilePlan {
  const entry = planWrite(path, text, { text: now }).files[0] as FilePlan;
  return { ...entry, after: text, noop: false };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
