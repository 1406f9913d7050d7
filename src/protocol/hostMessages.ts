import * as z from 'zod';
import { Attachments } from './attachments';
import { ImageFile, MAX_IMAGES } from './images';
import { QueuedPrompt } from './promptQueue';
import { Plan } from './plan';
import { RunningCommand } from './runningCommands';
import { ComposerChoices } from './composerChoices';
import { ChatEntry } from './chatEntries';
import { ChatTab } from './chatTabs';
import { HandoffOffer } from './handoffs';
import { SlashEntries } from './slashMenu';
import { WorktreesMessage } from './worktreeCard';

// What the extension host sends the chat panel: the entries and their changes, the state, the pickers, the
// banner and the meters (chatView.ts gathers them with the page's messages).

export const Banner = z.object({
  /** `interrupted`: the window went away (a reload) while a task ran; Retry reads *Resume*. */
  /** `limit`: the task stopped at the response ceiling or for making no progress; Retry reads *Continue*. */
  kind: z.enum(['reconnecting', 'fallback', 'failed', 'interrupted', 'limit']),
  text: z.string(),
  /** Offer Retry (Resume): the last task stopped and is resumable from its transcript. */
  retry: z.boolean(),
});

/** Which backend the chat talks to, for the empty chat and the panel's header. */
export const BackendInfo = z.object({
  /** The endpoint's host, or "built-in offline backend". */
  label: z.string(),
  /** The bundled local server with its scripted model: nothing leaves the machine. */
  offline: z.boolean(),
});

/**
 * How full the model's context is, after the last turn or compaction: the header's token meter (`38k / 272k`,
 * its words in contextMeter.ts).
 */
export const ContextMeter = z.object({
  /** The context's size in tokens: what the next turn starts from. */
  tokens: z.int().nonnegative(),
  /** The model's input window. */
  window: z.int().positive(),
});

/** The project's instruction files (AGENTS.md…) and whether the model gets them: the line above the composer. */
export const InstructionsInfo = z.object({
  files: z.array(
    z.object({
      /** As named to the model: relative to the workspace folder (`../AGENTS.md` above it). */
      label: z.string(),
      /** Absolute: what a click opens (the host opens only files it found). */
      path: z.string(),
      /** The 32 KiB cap left part of it (or all of it) out. */
      cut: z.boolean(),
    }),
  ),
  /** Sent with the next task: false in an untrusted workspace until the user allows it. */
  sent: z.boolean(),
  untrusted: z.boolean(),
});

/** A file or folder the composer's `@` picker offers for its query (the host's file search). */
export const ContextMatch = z.object({ kind: z.enum(['file', 'folder']), path: z.string() });

export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
});

export const HostMessage = z.discriminatedUnion('type', [
  /** Everything to show, from scratch: the newest entries, and whether older ones can be paged in. */
  z.object({
    type: z.literal('state'),
    sessionId: z.string(),
    entries: z.array(ChatEntry),
    hasOlder: z.boolean(),
    running: z.boolean(),
    banner: Banner.nullable(),
    backend: BackendInfo.optional(),
    /** The token meter; absent until a turn of this chat has finished (a new chat has none). */
    context: ContextMeter.optional(),
    /** The task's plan (the checklist above the composer): the last the model set in this chat; absent: none. */
    plan: Plan.optional(),
    /** Offer Implement: the last task ran in plan mode and answered (planImplement.ts). */
    implement: z.boolean().optional(),
  }),
  /** One entry, new or changed, in full. */
  z.object({ type: z.literal('entry'), entry: ChatEntry }),
  /** Text appended to a streaming assistant entry. */
  z.object({ type: z.literal('text'), id: z.string(), delta: z.string() }),
  /** The prompts queued behind the running task, in order (the chips above the composer). */
  z.object({ type: z.literal('queue'), items: z.array(QueuedPrompt) }),
  /** Stop gave these queued prompts back: they go into the composer, after what is typed there. */
  z.object({ type: z.literal('unqueued'), items: z.array(QueuedPrompt) }),
  z.object({ type: z.literal('running'), running: z.boolean() }),
  z.object({ type: z.literal('banner'), banner: Banner.nullable() }),
  /** The token meter after a turn finished or the context was compacted. */
  z.object({ type: z.literal('context'), context: ContextMeter }),
  /** The plan changed (the model's plan tool): the checklist above the composer, updated in place; null: none. */
  z.object({ type: z.literal('plan'), plan: Plan.nullable(), implement: z.boolean().optional() }),
  /** A custom agent's task completed: its handoffs' buttons under the answer (chatHandoffs.ts); empty: they go. */
  z.object({ type: z.literal('handoffs'), handoffs: z.array(HandoffOffer).max(20) }),
  /** A page of entries older than those shown. */
  z.object({ type: z.literal('older'), entries: z.array(ChatEntry), hasOlder: z.boolean() }),
  z.object({ type: z.literal('history'), sessions: z.array(SessionSummary) }),
  /** Put the cursor in the prompt box (Ask…, New Chat). */
  z.object({ type: z.literal('focus'), text: z.string().optional() }),
  /**
   * Edit and resend of message `id`: Loopwire changed these files after it, so the page asks first whether
   * they go back to how they were (Restore) or stay, then sends `resend` again with the answer.
   */
  z.object({ type: z.literal('resendAsk'), id: z.string(), text: z.string(), paths: z.array(z.string()) }),
  /** The composer's pickers, when the page loads and whenever a setting they show changes. */
  z.object({ type: z.literal('choices'), choices: ComposerChoices }),
  /** The project instructions' line, when the page loads, at each task's start and when a file changes. */
  z.object({ type: z.literal('instructions'), instructions: InstructionsInfo }),
  /** The `@` picker's files and folders for `query` (best first), answering `findContext`. */
  z.object({ type: z.literal('contextMatches'), query: z.string(), matches: z.array(ContextMatch) }),
  /** Chips to add to the composer: Add to Chat, a drop, `@selection` as the host read it. */
  z.object({ type: z.literal('attach'), attachments: Attachments }),
  /** Image files dropped from the explorer, read by the host: the page scales each into an image chip. */
  z.object({ type: z.literal('imageFiles'), files: z.array(ImageFile).max(MAX_IMAGES) }),
  /** The commands running in the background (the list above the composer), answering `watchCommands` and at each change. */
  z.object({ type: z.literal('commands'), commands: z.array(RunningCommand) }),
  /** The window's open chats (chatTabs.ts) and the one shown; empty while one chat alone is open (no list). */
  z.object({ type: z.literal('chats'), chats: z.array(ChatTab).max(1000), shown: z.string() }),
  /** The `/` menu's commands (slashMenu.ts), answering the page's `slashCommands`. */
  z.object({ type: z.literal('slashCommands'), commands: SlashEntries }),
  /** The worktree cards (worktreeCard.ts), answering `watchWorktrees` and after each change. */
  WorktreesMessage,
]);

export type BackendInfo = z.infer<typeof BackendInfo>;
export type ContextMeter = z.infer<typeof ContextMeter>;
export type Banner = z.infer<typeof Banner>;
export type SessionSummary = z.infer<typeof SessionSummary>;
export type InstructionsInfo = z.infer<typeof InstructionsInfo>;
export type ContextMatch = z.infer<typeof ContextMatch>;
export type HostMessage = z.infer<typeof HostMessage>;
