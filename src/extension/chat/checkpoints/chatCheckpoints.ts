import {
  type CheckpointJournal,
  CheckpointJournal as Journal,
  type RestorePlan,
  journalFile,
  journaledWorkspace,
  loadJournal,
  restoreCheckpoint,
  saveJournal,
} from '../../../agent';
import { type AnyInputItem, isPrompt } from '../../../protocol';
import type { ChatEntry } from '../../../protocol/chatView';
import type { Workspace } from '../../../workspace';
import { messageOf } from '../messageOf';
import { t } from '@vscode/l10n';

// The chat's checkpoints: each prompt is one, and the journal of what the agent's edit tools wrote since
// (src/agent/checkpoints/checkpointJournal.ts) is kept beside the chat's transcript, written as it changes, so that it
// survives a reload. Restore puts those files back; Edit and resend forks the conversation at a prompt and
// carries the checkpoints before it into the fork. Plain Node: tested without VS Code.

/** How many diffs a Restore opens at most for the files it left alone (the rest are listed). */
const DIFFS_OPENED = 3;

export class ChatCheckpoints {
  private journal: CheckpointJournal | undefined;
  /** A save put off to the next turn of the loop, and the journal it is for. */
  private later: { journal: CheckpointJournal; timer: NodeJS.Immediate } | undefined;

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The chat shown is now `sessionId` (undefined: a new, empty one): its journal is read from disk. */
  open(sessionId: string | undefined): void {
    if (sessionId === undefined) return void (this.journal = undefined);
    if (this.journal?.sessionId === sessionId) return;
    try {
      this.watch(loadJournal(journalFile(this.dir, sessionId), sessionId));
    } catch (error) {
      // The chat still opens: Restore then says it has nothing for the earlier prompts.
      this.log(`chat panel: ${messageOf(error)}`);
      this.watch(new Journal(sessionId));
    }
  }

  /** Prompt `id` starts its task, with `at` transcript items before it. */
  begin(id: string, at: number): void {
    this.journal?.begin(id, at);
  }

  /** The port the chat's agent gets: the same, its writes journaled (nothing, before a chat has a transcript). */
  wrap(workspace: Workspace): Workspace {
    return this.journal ? journaledWorkspace(workspace, this.journal) : workspace;
  }

  /** A call ran whose effects are not journaled (a command, a task). */
  unjournaled(name: string): void {
    this.journal?.unjournaled(name);
  }

  /** The files Loopwire wrote since prompt `id`. */
  changedSince(id: string): string[] {
    return this.journal?.targets(id).map((target) => target.path) ?? [];
  }

  /**
   * Where a fork at prompt `id` cuts the transcript: the items before it. A prompt without a checkpoint (a
   * chat from before checkpoints) is found by its place among the prompts.
   */
  forkPoint(id: string, entries: readonly ChatEntry[], items: readonly AnyInputItem[]): number | undefined {
    const known = this.journal?.find(id)?.at;
    if (known !== undefined) return known;
    const ordinal = entries.filter((entry) => entry.kind === 'user' && !entry.queued).findIndex((e) => e.id === id);
    if (ordinal < 0) return undefined;
    const prompts = items.flatMap((item, index) => (isPrompt(item) ? [index] : []));
    return prompts[ordinal];
  }

  /** The fork `sessionId` starts from this chat before prompt `id`: it keeps the checkpoints before it. */
  fork(sessionId: string, id: string): void {
    const earlier = this.journal?.checkpoints ?? [];
    const end = earlier.findIndex((checkpoint) => checkpoint.id === id);
    this.watch(new Journal(sessionId, end < 0 ? earlier : earlier.slice(0, end)));
    this.save();
  }

  /**
   * Restore at prompt `id` on `workspace` (the window's own port: this is the user's action, not the
   * agent's). Returns what it did, with the words the panel shows.
   */
  async restore(id: string, workspace: Workspace): Promise<{ plan: RestorePlan; text: string }> {
    if (!this.journal) throw new Error(t('This chat has no checkpoints yet.'));
    const plan = await restoreCheckpoint(this.journal, id, workspace);
    return { plan, text: describeRestore(plan) };
  }

  /** The files a Restore left alone whose diffs it opens. */
  static diffsToOpen(plan: RestorePlan): RestorePlan['kept'] {
    return plan.kept.slice(0, DIFFS_OPENED);
  }

  private watch(journal: CheckpointJournal): void {
    // The journal left for this one is on disk first, with what it had waiting.
    if (this.later) this.save(this.later.journal);
    this.journal = journal;
    journal.onChange((change) => {
      if (this.journal !== journal) return;
      // A pre-image goes to disk at once: it is what protects the edit. A checkpoint just begun holds nothing
      // yet, and an unjournaled call is a note: they wait for the next turn of the loop, after a warm
      // prompt's request is on the socket, unless a record writes them first.
      if (change === 'begin' || change === 'unjournaled') this.saveSoon(journal);
      else this.save(journal);
    });
  }

  private saveSoon(journal: CheckpointJournal): void {
    if (this.later) return;
    this.later = { journal, timer: setImmediate(() => this.save(journal)) };
  }

  /** Writes `journal` whole (the newest state: what was put off included). */
  private save(journal: CheckpointJournal | undefined = this.journal): void {
    const later = this.later;
    if (later && later.journal === journal) {
      clearImmediate(later.timer);
      this.later = undefined;
    }
    if (!journal) return;
    try {
      saveJournal(journalFile(this.dir, journal.sessionId), journal);
    } catch (error) {
      this.log(`chat panel: could not save the checkpoints: ${messageOf(error)}`);
    }
  }
}

const HOW: Record<RestorePlan['restored'][number]['how'], string> = {
  rewritten: t('put back'),
  deleted: t('deleted: Loopwire created it'),
  recreated: t('back: Loopwire had deleted or moved it'),
};

/** What a Restore did, in the panel's words. */
export function describeRestore(plan: RestorePlan): string {
  const lines: string[] = [];
  if (plan.restored.length === 0 && plan.kept.length === 0)
    lines.push(t('Nothing to restore: the files Loopwire wrote after this message are as they were.'));
  if (plan.restored.length > 0) {
    const files = plan.restored.map((file) => `${file.path} (${HOW[file.how]})`).join(', ');
    lines.push(
      plan.restored.length === 1
        ? t(
            'Restored 1 file to how it was before this message (one undo step in the editor takes it back): {0}.',
            files,
          )
        : t(
            'Restored {0} files to how they were before this message (one undo step in the editor takes it back): {1}.',
            plan.restored.length,
            files,
          ),
    );
  }
  if (plan.kept.length > 0) {
    const files = plan.kept.map((file) => `${file.path} (${file.why})`).join(', ');
    lines.push(
      plan.kept.length === 1
        ? t(
            'Left 1 file as it is, changed since Loopwire wrote it (the diff against what Restore would put there is open): {0}.',
            files,
          )
        : t(
            'Left {0} files as they are, changed since Loopwire wrote them (the diff against what Restore would put there is open): {1}.',
            plan.kept.length,
            files,
          ),
    );
  }
  if (plan.unjournaled.length > 0)
    lines.push(
      t(
        '{0} ran after this message: what commands and tasks changed is not undone.',
        [...new Set(plan.unjournaled)].join(', '),
      ),
    );
  return lines.join(' ');
}
