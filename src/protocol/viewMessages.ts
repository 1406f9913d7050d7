import * as z from 'zod';
import { QueueAction } from './promptQueue';
import { ResendPrompt, SendPrompt } from './sendPrompt';
import { Remedy } from './chatEntries';
import { SendInWorktree, WatchWorktrees, WorktreeAction } from './worktreeCard';

// What the chat panel sends the extension host: what the user did (chatView.ts gathers them with the host's messages).

export const HunkAction = z.object({
  type: z.literal('hunk'),
  callId: z.string(),
  path: z.string(),
  hunkId: z.string(),
  action: z.enum(['accept', 'reject']),
});

export const ViewMessage = z.discriminatedUnion('type', [
  /** The webview loaded (or reloaded): send the state. */
  z.object({ type: z.literal('ready') }),
  /** A prompt with the composer's chips: text, or images alone (sendPrompt.ts). */
  SendPrompt,
  /** Stop: the chat's task (and its subagents); with `agent`, that subagent alone (its nested card's Stop). */
  z.object({ type: z.literal('stop'), agent: z.string().min(1).max(100).optional() }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('retry') }),
  /** Implement: leave plan mode for the mode before it, and go on in this chat with the plan. */
  z.object({ type: z.literal('implement') }),
  /** A handoff's button (the `index`th offered, its `label` as shown): switch to its agent, then its prompt. */
  z.object({ type: z.literal('handoff'), index: z.int().nonnegative().max(20), label: z.string().max(200) }),
  /** The page wants the commands running in the background, now and at each change (`commands`). */
  z.object({ type: z.literal('watchCommands') }),
  /** Stop one command running in the background (its process group), by its session id. */
  z.object({ type: z.literal('stopCommand'), id: z.int().positive() }),
  /** A queued prompt's chip: edit it (`text`), remove it, move it, steer it into the task, or send it now. */
  z.object({
    type: z.literal('queue'),
    action: QueueAction,
    id: z.string(),
    text: z.string().min(1).max(100_000).optional(),
  }),
  /** A stop's button: the host runs the command of that remedy. */
  z.object({ type: z.literal('remedy'), remedy: Remedy }),
  z.object({ type: z.literal('loadOlder'), before: z.string() }),
  HunkAction,
  z.object({ type: z.literal('undoTurn'), turn: z.int().nonnegative() }),
  z.object({ type: z.literal('openDiff'), callId: z.string(), path: z.string() }),
  /**
   * Allow or Skip; `forChat`: allow every later call of the same effect in this chat without asking; `always`:
   * keep the ask's `rule` for this workspace.
   */
  z.object({
    type: z.literal('approval'),
    callId: z.string(),
    allow: z.boolean(),
    forChat: z.boolean().optional(),
    always: z.boolean().optional(),
  }),
  /** A path (or `path:line[:column]`) clicked in a tool's output or a card: opened in the editor. */
  z.object({
    type: z.literal('openFile'),
    path: z.string().min(1).max(4096),
    line: z.int().positive().optional(),
    column: z.int().positive().optional(),
  }),
  z.object({ type: z.literal('history') }),
  z.object({ type: z.literal('openSession'), id: z.string() }),
  /** What the page shows now (after a state or a new entry): how the host knows the panel is alive. */
  z.object({ type: z.literal('shown'), entries: z.int().nonnegative(), sessionId: z.string() }),
  /** Restore on a prompt: the files Loopwire wrote since that message go back to how they were then. */
  z.object({ type: z.literal('restore'), id: z.string() }),
  /** Edit and resend: the conversation forks at prompt `id`, sent again as edited (sendPrompt.ts). */
  ResendPrompt,
  /**
   * A composer picker changed: the setting is written for this workspace. A model without `value` is the
   * picker's Other…: the host asks for its name. `agent`: a custom agent's name, or `Loopwire` for none.
   */
  z.object({
    type: z.literal('choose'),
    choice: z.enum(['model', 'effort', 'approval', 'agent']),
    value: z.string().min(1).max(200).optional(),
  }),
  /** An instruction file's link clicked: opened in the editor. */
  z.object({ type: z.literal('openInstructions'), path: z.string().min(1).max(4096) }),
  /** Send the project instructions of this untrusted workspace after all (kept for this workspace). */
  z.object({ type: z.literal('allowInstructions') }),
  /** The `@` picker's query changed: the host answers with `contextMatches`. */
  z.object({ type: z.literal('findContext'), query: z.string().max(500) }),
  /** `@selection` picked: the host attaches the active editor's selection (`attach`), or says there is none. */
  z.object({ type: z.literal('attachSelection') }),
  /** Resources dropped on the panel (`file:` URIs): the host attaches those in the workspace. */
  z.object({ type: z.literal('attachUris'), uris: z.array(z.string().max(8192)).max(100) }),
  /** The list of chats: show chat `id` (none stops), or close it (its task stopped, its transcript kept). */
  z.object({ type: z.literal('switchChat'), id: z.string().max(100) }),
  z.object({ type: z.literal('closeChat'), id: z.string().max(100) }),
  /** The `/` menu opened: the host answers with the slash commands now (`slashCommands`). */
  z.object({ type: z.literal('slashCommands') }),
  /** The worktree cards: watch them, a card's button or file, a prompt sent with "in a new worktree" on. */
  WatchWorktrees,
  WorktreeAction,
  SendInWorktree,
]);

export type ViewMessage = z.infer<typeof ViewMessage>;
