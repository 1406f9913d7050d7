import * as vscode from 'vscode';
import type { ChatActivity } from '../chat/chatActivity';
import type { ChatViewProvider } from '../chat/window/chatViewProvider';
import { type Notice, NotificationPolicy, type Whereabouts, notificationSetting } from './notificationPolicy';

// Tells the user when the chat needs them and they are looking elsewhere (notificationPolicy.ts decides
// when): a non-modal notification with Show, which reveals the panel, and the Loopwire view's badge with the
// count of calls waiting for approval. Nothing here takes focus: the panel comes only on the user's click.

const SHOW = 'Show';

/**
 * What the window's chat reports its moments to (the runtime passes it to its chats); `open` shows one of
 * several chats open at once (Show on a notification that names it).
 */
export function taskNotifications(
  view: ChatViewProvider,
  log: vscode.LogOutputChannel,
  open?: (chatId: string) => void,
): ChatActivity {
  const policy = new NotificationPolicy();
  // Read at each moment: a change of setting, panel or focus applies to the next one.
  const where = (): Whereabouts => ({
    setting: notificationSetting(vscode.workspace.getConfiguration('loopwire').get('notifications')),
    panelVisible: view.visible,
    windowFocused: vscode.window.state.focused,
  });
  const show = (notice: Notice) => {
    const shown =
      notice.severity === 'warning'
        ? vscode.window.showWarningMessage(notice.message, SHOW)
        : vscode.window.showInformationMessage(notice.message, SHOW);
    // The panel opens at its latest entries: the waiting call's card, or the answer of the task that ended.
    Promise.resolve(shown)
      .then((choice) => {
        if (choice !== SHOW) return undefined;
        if (notice.chatId !== undefined) open?.(notice.chatId);
        return view.reveal(true);
      })
      .catch((error: unknown) => log.warn(`The chat panel could not be shown: ${String(error)}`));
  };
  return {
    waiting(calls) {
      const notice = policy.waiting(calls, where());
      view.badge = policy.badge();
      if (notice) show(notice);
    },
    ended(end) {
      const notice = policy.ended(end, where());
      if (notice) show(notice);
    },
  };
}
