import * as z from 'zod';

// The chats of the window that are open at once (issue 49): the panel shows one and lists them all, each with
// its state and its last line, so that the user sees which one waits for them and switches without stopping
// any (src/extension/chat/chatDeck.ts keeps them; src/webview/chatList.ts lists them).

/**
 * Where a chat stands: `new` before its first task, `running`, `queued` (its task waits for a free slot:
 * `loopwire.chat.maxParallel` run at once), `waiting` (a call waits for the user's Allow / Skip), and how its
 * last task ended.
 */
export const ChatState = z.enum(['new', 'running', 'queued', 'waiting', 'done', 'failed', 'stopped']);

export const ChatTab = z.object({
  id: z.string().min(1).max(100),
  /** Its first prompt's first line ('' for a chat without one yet: the page names it). */
  title: z.string().max(200),
  state: ChatState,
  /** Its last line: the answer's, a call's, or a stop's, cut to fit ('' for none yet). */
  last: z.string().max(200),
});

export type ChatState = z.infer<typeof ChatState>;
export type ChatTab = z.infer<typeof ChatTab>;
