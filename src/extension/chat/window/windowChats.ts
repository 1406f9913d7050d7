import * as vscode from 'vscode';
import type { ChatHost } from '../chatPort';
import { ChatDeck } from '../deck/chatDeck';
import { reviewInEditor } from '../../review/reviewInEditor';
import { type WindowChat, windowChatHost } from './windowChatHost';

// The window's chats (deck/chatDeck.ts) on its runtime: one port to the window (windowChatHost.ts) shared by
// all, each chat's agent on its own lane of the socket — the first's on the default lane, in the window's
// queue as a lone chat always was; the others beside it — `loopwire.chat.maxParallel` of them running at once.

/** The setting's default: four tasks at once. */
export const MAX_PARALLEL_DEFAULT = 4;

/** What the window's runtime gives its chats: its parts, and an agent maker per lane. */
export interface WindowChats extends Omit<WindowChat, 'agent'> {
  agent(lane: string | undefined): ChatHost['agent'];
}

/** `loopwire.chat.maxParallel` as read: a whole number of at least one, else the default. */
export function maxParallel(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : MAX_PARALLEL_DEFAULT;
}

export function windowChats(
  window: WindowChats,
  extras: Pick<ChatHost, 'composer' | 'context' | 'activity' | 'commands'>,
  subscriptions: vscode.Disposable[],
): ChatDeck {
  const base = windowChatHost({ ...window, agent: window.agent(undefined) }, subscriptions);
  const { activity, ...parts } = extras;
  return new ChatDeck({
    host: (lane) => ({
      ...base,
      ...parts,
      agent: window.agent(lane),
      enqueue: (run) => (lane === undefined ? window.queue.run(run) : window.queue.beside(run)),
    }),
    maxParallel: () => maxParallel(vscode.workspace.getConfiguration('loopwire').get('chat.maxParallel')),
    opened: (chat) =>
      subscriptions.push(
        ...reviewInEditor(
          chat,
          () => window.workspace(),
          (line) => window.log(line),
        ),
      ),
    activity,
  });
}
