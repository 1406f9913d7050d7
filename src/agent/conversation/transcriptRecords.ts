import * as z from 'zod';
import { AnyInputItem as InputItemSchema } from '../../protocol';
import { SubagentStatus } from '../../tools';

// The records of a transcript file (transcript.ts), one a line. A subagent's conversation (src/agent/subagents)
// is kept in its parent's file, each of its records wrapped in a `subagent` record naming it: its start (the
// spawn call, and where a fork of the parent's conversation began), the same records as the parent's, and each
// final status a wait could report. A file without them (written before them) reads as before.

const SessionRecord = z.object({
  kind: z.literal('session'),
  version: z.literal(1),
  id: z.string().min(1),
  createdAt: z.string(),
  workspace: z.string(),
  model: z.string(),
});
const ItemRecord = z.object({ kind: z.literal('item'), item: InputItemSchema });
/** Written just before a tool runs: after a crash, a call with this and no output may have taken effect. */
const ToolStartedRecord = z.object({ kind: z.literal('tool_started'), callId: z.string(), name: z.string() });
/**
 * Items put in at `at` rather than at the end: a compaction asked for after the context overflowed
 * stands for what came before the items that did not fit, so it goes before them (agent-loop.md).
 */
const InsertedRecord = z.object({
  kind: z.literal('inserted'),
  at: z.int().nonnegative(),
  items: z.array(InputItemSchema),
  /** Why: `compaction` (the tokens before and after, for whoever reads the transcript). */
  reason: z.literal('compaction'),
  tokensBefore: z.int().nonnegative().optional(),
  tokensAfter: z.int().nonnegative().optional(),
});
/**
 * What the user should find where it happened that is no part of the conversation, never sent to the model:
 * an inline edit done beside a chat (the panel's entry for it). `at`: how many items came before it.
 */
const NoteRecord = z.object({
  kind: z.literal('note'),
  at: z.int().nonnegative(),
  note: z.record(z.string(), z.unknown()),
});

/** The records a conversation writes after its header: the parent's and a subagent's (wrapped) alike. */
const CONVERSATION_RECORDS = [ItemRecord, ToolStartedRecord, InsertedRecord, NoteRecord] as const;

/** A subagent's start: the spawn call that started it, its type, and its model; `forkedAt`: a fork's first items. */
export const SubagentStart = z.object({
  kind: z.literal('start'),
  parentCallId: z.string(),
  agentType: z.string().optional(),
  createdAt: z.string(),
  model: z.string(),
  /** Started from the parent's first `forkedAt` items (fork_context): they are the parent's, not written again. */
  forkedAt: z.int().nonnegative().optional(),
});
export type SubagentStart = z.infer<typeof SubagentStart>;

/** One record of a subagent's own: its start, its conversation's, or a final status its parent could be told. */
export const SubagentRecord = z.discriminatedUnion('kind', [
  SubagentStart,
  ...CONVERSATION_RECORDS,
  z.object({ kind: z.literal('status'), status: SubagentStatus }),
]);
export type SubagentRecord = z.infer<typeof SubagentRecord>;

export const TranscriptRecord = z.discriminatedUnion('kind', [
  SessionRecord,
  ...CONVERSATION_RECORDS,
  /** A record of subagent `agent` (spawn_agent's `agent_id`), kept in its parent's file. */
  z.object({ kind: z.literal('subagent'), agent: z.string().min(1), record: SubagentRecord }),
]);
export type TranscriptRecord = z.infer<typeof TranscriptRecord>;
export type SessionHeader = z.infer<typeof SessionRecord>;
/** The records a conversation writes after its header, the parent's and a subagent's alike. */
export type ConversationRecord = z.infer<(typeof CONVERSATION_RECORDS)[number]>;
