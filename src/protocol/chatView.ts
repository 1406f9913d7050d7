import * as z from 'zod';
import { Attachment, Attachments } from './attachments';
import { ImageFile, MAX_IMAGES } from './images';
import { DiffHunk, FileOp } from './edits';
import { QueueAction, QueuedPrompt } from './promptQueue';
import { ResendPrompt, SendPrompt } from './sendPrompt';
import { Plan } from './plan';
import { RunningCommand } from './runningCommands';
import { ComposerChoices } from './composerChoices';

export { ApprovalChoice, ComposerChoices } from './composerChoices';

// The chat panel's messages, both directions: the extension host keeps the conversation and sends the
// webview what to show; the webview sends back what the user did. Each side validates what it receives.

/**
 * Where a reviewed hunk stands, read from the file as it is now: as applied, kept by the user, taken back
 * (by Reject or by the editor's Undo), or `edited` — its lines changed since, so it can be neither kept nor
 * taken back.
 */
export const HunkState = z.enum(['applied', 'accepted', 'rejected', 'edited']);

export const DiffFile = z.object({
  path: z.string(),
  op: FileOp,
  moveTo: z.string().optional(),
  hunks: z.array(DiffHunk),
  /** Still being written by the model: more may come. */
  pending: z.boolean(),
  /** Already known to fail (the call will be refused), or why a review action was refused. */
  error: z.string().optional(),
  /** Per hunk id, once the edit is applied (a review card). */
  states: z.record(z.string(), HunkState).optional(),
  /**
   * While the file is being written: what the host left out before the hunks it sent, which hold only the
   * lines the card shows (diffTail.ts): how many lines would be drawn, and how many are added and removed.
   */
  elided: z
    .object({ lines: z.int().nonnegative(), added: z.int().nonnegative(), removed: z.int().nonnegative() })
    .optional(),
});

export const ToolStatus = z.enum([
  /** The model is still writing the call. */
  'streaming',
  /** Written; waiting for the user's Apply or Skip. */
  'approval',
  'running',
  'done',
  'failed',
  'declined',
]);

/** What an approval asks, in words: shown on the card while it waits for the user. */
export const ApprovalAsk = z.object({
  /** What Allow does: "Run task `npm: test`", "Apply edit to `src/cart.js`". Markdown (code spans only). */
  action: z.string(),
  /** What it runs or changes, shown before it runs: the task's command, the files an edit touches. */
  detail: z.string().optional(),
  /** The kind of call "Allow … for this chat" allows from now on: `write` (edits) or `task` (tasks). */
  effect: z.enum(['write', 'task']),
  /** A shell command's allow rule that "Always allow … in this workspace" keeps (`npm test`), where one fits. */
  rule: z.string().optional(),
  /** The model asks to run a command outside the sandbox: the card offers it once, its rule, or Decline. */
  escalation: z.boolean().optional(),
  /** Why, in the model's own words (its `justification`), shown apart from what will run. */
  reason: z.string().optional(),
});

/**
 * What fixes a stopped task, as the button on its line: one of Loopwire's own commands, which the host runs
 * (`Set API Key…`, `Select Endpoint…`, `Show Log`). The page names a remedy, never a command id.
 */
export const Remedy = z.enum(['setApiKey', 'selectEndpoint', 'showLog']);

/**
 * An inline edit done in the editor beside this chat (Ctrl+I, or the light bulb's Fix with Loopwire), once it
 * ended: one short line, "Fixed inline in src/cart.js:12" and its outcome, whose card opens on what was asked,
 * the diff the model wrote and what it said. Not conversation: this chat's model never sees it (the inline
 * edit was a chain of its own, src/extension/inline).
 */
export const InlineEntry = z.object({
  kind: z.literal('inline'),
  id: z.string(),
  /** `fix`: the light bulb's Fix with Loopwire; `edit`: Ctrl+I with the user's words. */
  action: z.enum(['fix', 'edit']),
  /** "Fixed inline in src/cart.js:12", "Edited inline in src/cart.js:10". */
  title: z.string(),
  /**
   * Every change kept, every one undone, some of each (`kept` says how many were kept), stopped (Escape, or a
   * new edit of the file while it was written), failed, or no change written; or `pending`: the window closed
   * while changes still waited for Keep or Undo, so they stayed in the file as written (`saved` says whether
   * the file on disk had them then).
   */
  outcome: z.enum(['kept', 'undone', 'partly', 'stopped', 'failed', 'unchanged', 'pending']),
  /**
   * Only with `pending`: true when the file was saved with the changes when the window closed; false when they
   * were in the editor only (unsaved: VS Code then kept the buffer for the next start, or asked to save it).
   */
  saved: z.boolean().optional(),
  /** The workspace path and 1-based line the title names (the link opens the file there). */
  path: z.string(),
  line: z.int().positive(),
  /** The user's words, or the problem fixed. */
  prompt: z.string(),
  /** What the model wrote, hunk by hunk (none when nothing was written). */
  diff: z.array(DiffFile),
  /** How many of the diff's hunks were kept. */
  kept: z.int().nonnegative(),
  /** What the model said at the end, or why it stopped. */
  note: z.string(),
});

export const ChatEntry = z.discriminatedUnion('kind', [
  /**
   * A prompt; `queued` while it waits for the task before it (shown last, marked queued); `attachments`: what
   * went with it (its chips).
   */
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    queued: z.boolean().optional(),
    /** Steered into the running task: it reached the model where the entry stands, mid-task. */
    steered: z.boolean().optional(),
    attachments: z.array(Attachment).optional(),
  }),
  /**
   * Answer text, markdown, growing while `streaming`; `note` for a progress note the model wrote between tool
   * calls (a message of `phase: "commentary"`), shown as such rather than as the answer.
   */
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    text: z.string(),
    streaming: z.boolean(),
    note: z.boolean().optional(),
  }),
  /** The model's reasoning summary (markdown), shown folded as *Thinking*, growing while `streaming`. */
  z.object({ kind: z.literal('thinking'), id: z.string(), text: z.string(), streaming: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    turn: z.int().nonnegative(),
    name: z.string(),
    /** One line: what the call is about (a path, a pattern, a task). */
    summary: z.string(),
    /** The workspace paths the written call reads or changes, as its tool says: where the summary names one, it opens the file. */
    paths: z.array(z.string()).optional(),
    status: ToolStatus,
    durationMs: z.number().nonnegative().optional(),
    /** The command the call left running in the background (exec_command past its yield time), until it ends. */
    session: z.int().positive().optional(),
    /** How that command ended: its exit code (null: stopped, or by a signal), and whether its timeout stopped it. */
    exit: z.object({ code: z.int().nullable(), timedOut: z.boolean() }).optional(),
    /** The tool's answer, cut for display. */
    output: z.string().optional(),
    /** The live diff while streaming, the proposed one while asking, the review once applied. */
    diff: z.array(DiffFile).optional(),
    /** While `approval`: what the call will do, for the card's Allow / Skip. */
    ask: ApprovalAsk.optional(),
  }),
  /** A line of the conversation's own; a task's stop has the `remedy` that fixes its cause. */
  z.object({
    kind: z.literal('notice'),
    id: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
    remedy: Remedy.optional(),
  }),
  InlineEntry,
]);

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
]);

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
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('retry') }),
  /** Implement: leave plan mode for the mode before it, and go on in this chat with the plan. */
  z.object({ type: z.literal('implement') }),
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
   * picker's Other…: the host asks for its name.
   */
  z.object({
    type: z.literal('choose'),
    choice: z.enum(['model', 'effort', 'approval']),
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
]);

export type HunkState = z.infer<typeof HunkState>;
export type DiffFile = z.infer<typeof DiffFile>;
export type ToolStatus = z.infer<typeof ToolStatus>;
export type ChatEntry = z.infer<typeof ChatEntry>;
export type ApprovalAsk = z.infer<typeof ApprovalAsk>;
export type BackendInfo = z.infer<typeof BackendInfo>;
export type ContextMeter = z.infer<typeof ContextMeter>;
export type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;
export type InlineEntry = z.infer<typeof InlineEntry>;
export type Banner = z.infer<typeof Banner>;
export type Remedy = z.infer<typeof Remedy>;
export type SessionSummary = z.infer<typeof SessionSummary>;
export type InstructionsInfo = z.infer<typeof InstructionsInfo>;
export type ContextMatch = z.infer<typeof ContextMatch>;
export type HostMessage = z.infer<typeof HostMessage>;
export type ViewMessage = z.infer<typeof ViewMessage>;
