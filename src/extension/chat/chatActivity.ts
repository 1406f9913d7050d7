import type { DoneEvent } from '../../agent';

// What the chat tells the window about the moments a task needs the user (a call waiting for Allow / Skip, a
// task's end), so that the window can say so where the user is (taskNotifications.ts). Plain types.

/** The chat a moment is of, where several are open (deck/chatDeck.ts): a notification names it. */
export interface ChatNamed {
  id: string;
  title: string;
  /** The panel shows another chat: the user is away from this one even with the panel in front. */
  hidden: boolean;
}

/** A call waiting for Allow / Skip, and its action as its card words it ("Run command `echo hi`"). */
export interface WaitingCall {
  callId: string;
  action: string;
  chat?: ChatNamed;
}

/** How one of the chat's tasks ended. */
export interface TaskEnd {
  status: DoneEvent['status'];
  /** Why it stopped, where it did not complete. */
  reason: string;
  /** The prompt that started it, where one did (a Retry has none). */
  prompt: string | undefined;
  /** Another task of the chat runs or waits to run right after this one (a queued prompt, a steer). */
  more: boolean;
  chat?: ChatNamed;
}

export interface ChatActivity {
  /** The calls waiting for Allow / Skip now, oldest first (empty: none waits any more). */
  waiting(calls: readonly WaitingCall[]): void;
  /** A task of the chat is over. */
  ended(end: TaskEnd): void;
}
