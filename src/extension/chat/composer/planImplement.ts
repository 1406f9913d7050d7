import { t } from '@vscode/l10n';
import type { ChatHost, ChatOutcome } from '../chatPort';
import { ReviewRefused } from '../../review/reviewEdits';

// Implement, on a task that answered in plan mode: the approval mode goes back to the one the user had before
// plan mode (the window remembers it when plan is picked), and the chat goes on with a prompt of its own, a
// normal turn of the same conversation, on the same chain: the model has its plan in the context, and the
// environment item that follows says the mode changed.

/** The prompt Implement sends. */
export const IMPLEMENT_PROMPT = 'Implement the plan.';

/** Leaves plan mode (where the window can) and sends {@link IMPLEMENT_PROMPT} as the chat's next turn. */
export async function implementPlan(backend: ChatHost, ask: (prompt: string) => Promise<ChatOutcome>): Promise<void> {
  if (backend.approvalMode() === 'plan') {
    if (!backend.composer?.leavePlanMode)
      throw new ReviewRefused(
        t('Plan mode cannot be left from here: pick another approval mode, then send the prompt.'),
      );
    await backend.composer.leavePlanMode();
  }
  void ask(IMPLEMENT_PROMPT);
}
