import * as vscode from 'vscode';
import type { BackgroundCommands, SessionEvent } from '../../../tools';
import type { ChatHost } from '../chatPort';
import { ChatDeck } from '../deck/chatDeck';
import { reviewInEditor } from '../../review/reviewInEditor';
import { type WindowChat, windowChatHost } from './windowChatHost';
import { WorktreeCards } from '../../worktrees/worktreeCards';

// The window's chats (deck/chatDeck.ts) on its runtime: one port to the window (windowChatHost.ts) shared by
// all, each chat's agent on its own lane of the socket — the first's on the default lane, in the window's
// queue as a lone chat always was; the others beside it — `loopwire.chat.maxParallel` of them running at once.

/** The setting's default: four tasks at once. */
export const MAX_PARALLEL_DEFAULT = 4;

/** What the window's runtime gives its chats: its parts, and an agent maker per lane and chat's commands. */
export interface WindowChats extends Omit<WindowChat, 'agent'> {
  agent(lane: string | undefined, commands?: BackgroundCommands): ChatHost['agent'];
  /** A chat's command went on in the background, or ended. */
  commandEvent?(chat: string, event: SessionEvent): void;
}

/** `loopwire.chat.maxParallel` as read: a whole number of at least one, else the default. */
export function maxParallel(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : MAX_PARALLEL_DEFAULT;
}

export function windowChats(
  window: WindowChats,
  extras: Pick<ChatHost, 'composer' | 'context' | 'activity'>,
  subscriptions: vscode.Disposable[],
): ChatDeck {
  const base = windowChatHost({ ...window, agent: window.agent(undefined) }, subscriptions);
  const { activity, ...parts } = extras;
  // The worktree cards are the window's, shared by its chats; each task's end may have changed a worktree.
  const worktrees = new WorktreeCards((text) => void deck.shown.ask(text));
  subscriptions.push(worktrees);
  const deck: ChatDeck = new ChatDeck({
    // Each chat's agents keep their commands in the chat's own registry (deck/chatCommands.ts).
    host: (lane, commands) => ({
      ...base,
      ...parts,
      worktrees,
      agent: window.agent(lane, commands),
      enqueue: (run) => (lane === undefined ? window.queue.run(run) : window.queue.beside(run)),
    }),
    commandEvent: (chat, event) => window.commandEvent?.(chat, event),
    maxParallel: () => maxParallel(vscode.workspace.getConfiguration('loopwire').get('chat.maxParallel')),
    opened: (chat) =>
      subscriptions.push(
        ...reviewInEditor(
          chat,
          () => window.workspace(),
          (line) => window.log(line),
        ),
      ),
    activity: {
      waiting: (calls) => activity?.waiting(calls),
      ended: (end) => {
        activity?.ended(end);
        void worktrees.refresh();
      },
    },
  });
  return deck;
}
