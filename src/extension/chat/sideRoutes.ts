import { t } from '@vscode/l10n';
import type { HostMessage } from '../../protocol/chatView';
import type { ChatAttachments } from './composer/chatAttachments';
import type { ChatModel } from './chatModel';
import type { ChatHost } from './chatPort';
import { ReviewRefused } from '../review/reviewEdits';
import { listSessions } from './history/sessionHistory';
import type { ViewRoutes } from './viewRoutes';

// The page's messages that leave the conversation as it is: a stop's remedy, an older page, a file to open,
// History's list, the composer's pickers and instructions line, its attachments, and the commands running in
// the background. The controller's own routes (chatController.ts) are those that change the conversation.

type SideRoute =
  | 'remedy'
  | 'loadOlder'
  | 'openFile'
  | 'history'
  | 'choose'
  | 'openInstructions'
  | 'allowInstructions'
  | 'findContext'
  | 'attachSelection'
  | 'attachUris'
  | 'watchCommands'
  | 'stopCommand'
  | 'switchChat'
  | 'closeChat'
  | 'watchWorktrees'
  | 'worktree'
  | 'sendInWorktree';

export interface SideParts {
  backend: ChatHost;
  attachments: ChatAttachments;
  model: ChatModel;
  send(message: HostMessage): void;
}

/** The routes, on the chat's parts as they are when a message comes (read then, not when the table is built). */
export function sideRoutes(parts: () => SideParts): Pick<ViewRoutes, SideRoute> {
  const backend = () => parts().backend;
  return {
    remedy: (message) => backend().remedy?.(message.remedy),
    loadOlder: (message) => parts().send({ type: 'older', ...parts().model.olderThan(message.before) }),
    openFile: async ({ path, line, column }) => {
      const chat = backend();
      if (!chat.openFile) throw new ReviewRefused(t('Files cannot be opened from here.'));
      await chat.openFile(path, line, column);
    },
    history: () => parts().send({ type: 'history', sessions: listSessions(backend().sessionsDir) }),
    choose: async (message) => backend().composer?.choose(message),
    openInstructions: async (message) => backend().composer?.openInstructions(message.path),
    allowInstructions: async () => backend().composer?.allowInstructions(),
    findContext: (message) => parts().attachments.receive(message),
    attachSelection: (message) => parts().attachments.receive(message),
    attachUris: (message) => parts().attachments.receive(message),
    // The commands running in the background: the list above the composer, and the Stop of each.
    watchCommands: () => backend().commands?.watch((commands) => parts().send({ type: 'commands', commands })),
    stopCommand: async (message) => backend().commands?.stop(message.id),
    // The list of chats is the deck's (deck/chatDeck.ts): a chat alone has no other to show or close.
    switchChat: () => undefined,
    closeChat: () => undefined,
    // The worktree cards and "in a new worktree" (worktrees/worktreeCards.ts); a prompt not taken goes back.
    watchWorktrees: () => backend().worktrees?.watch((message) => parts().send(message)),
    worktree: async (message) => backend().worktrees?.act(message),
    sendInWorktree: async ({ text }) => {
      if (!(await backend().worktrees?.sendInWorktree(text))) parts().send({ type: 'focus', text });
    },
  };
}
