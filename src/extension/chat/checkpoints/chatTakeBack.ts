import type { RestorePlan } from '../../../agent';
import { t } from '@vscode/l10n';
import type { Workspace } from '../../../workspace';
import { ChatCheckpoints } from './chatCheckpoints';
import type { ChatModel } from '../chatModel';
import type { ReviewBook } from '../../review/reviewBook';
import { ReviewRefused } from '../../review/reviewEdits';

// Taking back what the agent did, from the panel: Undo all of this turn (its hunks, through the review),
// Restore under a prompt (the files written since its checkpoint), and the diff editor on a file it wrote.
// Each says what it did in the conversation; a file Restore left alone opens as a diff. Plain Node.

export interface TakeBackContext {
  model: ChatModel;
  reviews: ReviewBook;
  checkpoints: ChatCheckpoints;
  busy: () => boolean;
  workspace: () => Promise<Workspace>;
  openDiff: (path: string, before: string, title: string) => Promise<void>;
}

export class ChatTakeBack {
  constructor(private readonly context: TakeBackContext) {}

  async undoTurn(turn: number): Promise<void> {
    const count = await this.context.reviews.undoTurn(turn);
    this.context.model.notice(
      'info',
      count === 0
        ? t('Nothing left to undo in that turn.')
        : count === 1
          ? t('Took back 1 hunk of turn {0}.', turn)
          : t('Took back {0} hunks of turn {1}.', count, turn),
    );
  }

  /** Restore on a prompt: its checkpoint's files go back; those the user changed since open as diffs. */
  async restore(id: string): Promise<void> {
    if (this.context.busy()) throw new ReviewRefused(t('Restore waits for the task to end: Stop it first.'));
    await this.show(await this.restoreFiles(id));
  }

  /** The files written since prompt `id` go back, said nowhere yet (an edited prompt's fork says it once shown). */
  async restoreFiles(id: string): Promise<{ plan: RestorePlan; text: string }> {
    return this.context.checkpoints.restore(id, await this.context.workspace());
  }

  /** What a Restore did, in the conversation, and the diffs of the files it left alone. */
  async show({ plan, text }: { plan: RestorePlan; text: string }): Promise<void> {
    this.context.model.notice(plan.kept.length > 0 || plan.unjournaled.length > 0 ? 'warning' : 'info', text);
    for (const file of ChatCheckpoints.diffsToOpen(plan))
      await this.context.openDiff(file.path, file.target ?? '', `${file.path} (Restore ↔ now)`);
  }

  /** A file an edit wrote, in the diff editor: before Loopwire against now. */
  async openDiff(callId: string, path: string): Promise<void> {
    const before = await this.context.reviews.before(callId, path);
    await this.context.openDiff(path, before, `${path} (before Loopwire ↔ now)`);
  }
}
