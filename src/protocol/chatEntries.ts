import * as z from 'zod';
import { Attachment } from './attachments';
import { DiffHunk, FileOp } from './edits';

// The chat's entries as the panel shows them: messages, tool cards with their diffs and approvals, inline
// edits' notes (chatView.ts gathers them with the messages of both directions).

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

/** What a hook (src/agent/hooks) decided about a call: a line on its card ("PreToolUse hook denied: …"). */
export const ToolHook = z.object({
  event: z.string().max(100),
  decision: z.enum(['allow', 'ask', 'deny', 'block', 'context']),
  reason: z.string().max(4000).optional(),
});

/** A tool call's card: the chat's own, or one of a subagent's calls (nested in its spawn_agent card). */
export const ToolCall = z.object({
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
  /** A hook's decision about the call, where one decided (the last, for PostToolUse after PreToolUse). */
  hook: ToolHook.optional(),
});

/**
 * A subagent (issue 49 item 4) as its spawn_agent card shows it: folded, its id and type, the first line of its
 * task, where it stands and how many calls it made; opened, its calls' cards and its answer.
 */
export const SubagentView = z.object({
  id: z.string(),
  /** The `agent_type` the spawn asked for (`explorer`…), where it asked for one. */
  type: z.string().optional(),
  /** Its task: the spawn's message (send_input's later ones do not replace it). */
  task: z.string(),
  /** `stopped`: its task was stopped (its own Stop, the chat's, or close_agent) before it answered. */
  state: z.enum(['running', 'done', 'failed', 'stopped']),
  /** Why it failed or stopped, where it did. */
  reason: z.string().optional(),
  calls: z.array(ToolCall),
  /** Its last answer (markdown), once it wrote one. */
  answer: z.string().optional(),
});

/** A subagent a wait call waited for: what the wait returned for it, in a line. */
export const WaitedAgent = z.object({
  id: z.string(),
  /** `done` with an answer, `failed` (errored), `running` (the wait timed out first), `closed`, `unknown`. */
  state: z.enum(['done', 'failed', 'running', 'closed', 'unknown']),
  /** The answer's (or the error's) first line. */
  line: z.string().optional(),
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
  ToolCall.extend({
    /** On a spawn_agent card: the subagent that call started, nested under it. */
    subagent: SubagentView.optional(),
    /** On a wait card: the subagents it waited for, and where each stood when it returned. */
    waited: z.array(WaitedAgent).optional(),
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

export type HunkState = z.infer<typeof HunkState>;
export type DiffFile = z.infer<typeof DiffFile>;
export type ToolStatus = z.infer<typeof ToolStatus>;
export type ChatEntry = z.infer<typeof ChatEntry>;
export type ApprovalAsk = z.infer<typeof ApprovalAsk>;
export type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;
export type ToolCall = z.infer<typeof ToolCall>;
export type ToolHook = z.infer<typeof ToolHook>;
export type SubagentView = z.infer<typeof SubagentView>;
export type WaitedAgent = z.infer<typeof WaitedAgent>;
export type InlineEntry = z.infer<typeof InlineEntry>;
export type Remedy = z.infer<typeof Remedy>;
