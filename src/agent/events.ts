import * as z from 'zod';
import { EditedFile, HandoffOffer } from '../protocol';
import { ReviewFinding } from './review/reviewFindings';
import { GAP_PHASES } from './timing/turnGap';

// The agent's event stream: one zod schema per event, the single source of truth for every consumer (the
// CLI's renderer and `--json`, the extension, the webview bridge). Types are inferred, never written twice.

/** How one turn went on the wire, measured by the client. Durations in milliseconds. */
export const TurnMetrics = z.object({
  turn: z.int().positive(),
  transport: z.enum(['ws', 'http']),
  /** The request relied on the server holding the conversation: `previous_response_id` and only the new items. */
  chained: z.boolean(),
  /** Requests sent for this turn: 1, plus one per retry. */
  attempts: z.int().positive(),
  /** Request on the wire → the first event of its response. */
  timeToFirstEventMs: z.number().nonnegative(),
  /** Request on the wire → the first delta of output (text, reasoning or a tool call's arguments). */
  timeToFirstTokenMs: z.number().nonnegative().nullable(),
  /** The first event → the terminal event. */
  modelMs: z.number().nonnegative(),
  /** The tool calls this turn asked for, wall time from the first start to the last finish, less approval waits. */
  toolMs: z.number().nonnegative(),
  /** Time this turn's calls waited for someone to approve them (0 when nothing asked). */
  approvalMs: z.number().nonnegative(),
  /** Client overhead before the request: the prompt or the last tool result ready → request on the wire. */
  overheadBeforeMs: z.number().nonnegative(),
  /** Client overhead after the response: `response.completed` → the first tool started (null: no tool). */
  overheadAfterMs: z.number().nonnegative().nullable(),
  /**
   * The client's whole turnaround before this request: the previous response's terminal event → this request
   * on the wire, its tool calls and everything around them included, approval waits not (null on a task's
   * first turn). For a read of a small file it is the loop's floor: the bench's gap.
   */
  gapMs: z.number().nonnegative().nullable(),
  bytesSent: z.int().nonnegative(),
  bytesReceived: z.int().nonnegative(),
  inputTokens: z.int().nonnegative(),
  cachedTokens: z.int().nonnegative(),
  outputTokens: z.int().nonnegative(),
  /** Input items the request carried (all of them when not chained). */
  itemsSent: z.int().nonnegative(),
  /** The context after this turn, in tokens (what it read and wrote): what the next turn starts from. */
  contextTokens: z.int().nonnegative(),
  /** The model's input window, when the session knows it: the token meter's "of". */
  contextWindow: z.int().positive().optional(),
  /** This turn's output began with a compaction item (the server compacted the context). */
  compacted: z.boolean().optional(),
  /** `gapMs` split at the loop's boundaries (turnGap.ts's phases, adding up to it), where there was a gap. */
  gapPhasesMs: z.record(z.enum(GAP_PHASES), z.number().nonnegative()).optional(),
});

export const TransportState = z.enum(['connecting', 'warm', 'reconnecting', 'http_fallback', 'http', 'closed']);

/**
 * Which subagent an event is of (src/agent/subagents), on each of its events: its id (what spawn_agent
 * answered) and the id of the spawn_agent call that started it, under which a front end nests it. Absent on
 * the events of the agent a front end started.
 */
export const SubagentRef = z.object({ id: z.string(), parentCallId: z.string() });

const EventBody = z.discriminatedUnion('type', [
  /** The session's connection: opening, warmed up, reconnecting (attempt n of max), on HTTP. */
  z.object({
    type: z.literal('transport'),
    state: TransportState,
    transport: z.enum(['ws', 'http']),
    attempt: z.int().positive().optional(),
    maxAttempts: z.int().positive().optional(),
    reason: z.string().optional(),
  }),
  z.object({ type: z.literal('turn_started'), turn: z.int().positive() }),
  /**
   * Answer text as the model writes it. `phase` is the message's, where the server says: `commentary` for a
   * progress note between tool calls, `final_answer` for the answer.
   */
  z.object({
    type: z.literal('text_delta'),
    turn: z.int().positive(),
    itemId: z.string(),
    delta: z.string(),
    phase: z.string().optional(),
  }),
  z.object({ type: z.literal('reasoning_delta'), turn: z.int().positive(), itemId: z.string(), delta: z.string() }),
  /** A tool call's arguments (function) or input (custom) as they stream: the live diff's source. */
  z.object({
    type: z.literal('tool_call_delta'),
    turn: z.int().positive(),
    itemId: z.string(),
    callId: z.string().optional(),
    name: z.string(),
    kind: z.enum(['function', 'custom']),
    delta: z.string(),
  }),
  /**
   * An output item of a tool the server ran itself (`web_search_call`, `file_search_call`, …, or any type this
   * version does not model): kept in the transcript and replayed as given, shown as one line.
   */
  z.object({ type: z.literal('hosted_call'), turn: z.int().positive(), itemType: z.string(), summary: z.string() }),
  /** A response's partial output was thrown away (the socket dropped mid-stream): consumers reset what they showed. */
  z.object({ type: z.literal('output_discarded'), turn: z.int().positive(), reason: z.string() }),
  /** A whole message of a turn, once complete; `phase: "commentary"` for a progress note, not the answer. */
  z.object({ type: z.literal('message'), turn: z.int().positive(), text: z.string(), phase: z.string().optional() }),
  z.object({
    type: z.literal('tool_started'),
    turn: z.int().positive(),
    callId: z.string(),
    name: z.string(),
    kind: z.enum(['function', 'custom']),
    /** The call's arguments (JSON text) or freeform input, complete. */
    input: z.string(),
  }),
  z.object({
    type: z.literal('tool_finished'),
    turn: z.int().positive(),
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    /**
     * The call's whole output in the model's words: English in every language (programs match on it), and all
     * of it where the model was sent its output cut to a budget.
     */
    output: z.string(),
    /**
     * The output as the person reads it, in their language (a refusal, a run's first line), where a language
     * other than English is in force and it differs from `output`: what the panel and the terminal show.
     */
    shown: z.string().optional(),
    durationMs: z.number().nonnegative(),
    /** The user (or policy) declined the call; it did not run. */
    declined: z.boolean().optional(),
    /** What an edit tool wrote. */
    edits: z.array(EditedFile).optional(),
  }),
  z.object({ type: z.literal('turn_finished'), metrics: TurnMetrics }),
  /**
   * Text the user steered into the running task reached the model: at a tool boundary (a user message after
   * the calls' outputs), or natively over the socket (`response.steer`, committed by the successor response).
   */
  z.object({
    type: z.literal('steered'),
    turn: z.int().positive(),
    text: z.string(),
    how: z.enum(['boundary', 'native']),
  }),
  /**
   * The context was compacted: by the server in a response (`auto`, past the threshold) or on request after
   * it no longer fit or the user asked (`request`, `POST /responses/compact`; `/compact` gives `items`). Tokens
   * are the context's before and after.
   */
  z.object({
    type: z.literal('compacted'),
    turn: z.int().positive(),
    how: z.enum(['auto', 'request']),
    tokensBefore: z.int().nonnegative(),
    tokensAfter: z.int().nonnegative(),
    /** The user's `/compact`: how many items of the conversation it folded (absent for the agent's own). */
    items: z.int().nonnegative().optional(),
  }),
  /** A request is sent again; `reason` says why, `delayMs` how long the client waits first. */
  z.object({
    type: z.literal('retry'),
    turn: z.int().positive(),
    attempt: z.int().positive(),
    reason: z.string(),
    delayMs: z.number().nonnegative(),
    fullContext: z.boolean(),
  }),
  /**
   * The fault that stops a task, as it happens: the `done` that follows carries the same code, and the message as
   * its reason (a front end that shows the one need not show the other).
   */
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  /** Something worth a line in the log that changes nothing for the task (a refused warm-up). */
  z.object({
    type: z.literal('notice'),
    code: z.string(),
    message: z.string(),
    /** A hook's notice (src/agent/hooks): its event, and what it decided where it decided (`code: "hook"`). */
    hook: z
      .object({
        event: z.string(),
        decision: z.enum(['allow', 'ask', 'deny', 'block', 'context']).optional(),
        reason: z.string().optional(),
        /** The tool call it decided about (PreToolUse, PostToolUse): the panel shows the line on that call's card. */
        callId: z.string().optional(),
      })
      .optional(),
  }),
  /**
   * A review's findings (`/review`, src/agent/review), read from the model's answer once the task completed:
   * each with its severity, file, line and suggested fix; `problems` says what of the answer could not be used.
   */
  z.object({
    type: z.literal('review'),
    findings: z.array(ReviewFinding),
    verdict: z.enum(['correct', 'incorrect']).optional(),
    explanation: z.string().optional(),
    problems: z.array(z.string()).optional(),
  }),
  /**
   * The task is over: `completed`, or stopped for `reason` (and resumable from the transcript), in the person's
   * language (@vscode/l10n; the model never reads it, and a program reads `status` and `code`). `code` names
   * how a completed task ended (`answered`: the model's answer; `edit_made`: an inline edit's end on its edit)
   * and the cause of any other end, so that each front end can add its own remedy to the reason: the stop's
   * code (`auth`, `unreachable`, `websocket_unsupported`, an API error's such as `model_not_found`),
   * `internal`, `max_turns`, `incomplete` or `cancelled`.
   */
  z.object({
    type: z.literal('done'),
    status: z.enum(['completed', 'failed', 'stopped', 'cancelled']),
    reason: z.string(),
    code: z.string().optional(),
    turns: z.int().nonnegative(),
    toolCalls: z.int().nonnegative(),
    wallMs: z.number().nonnegative(),
    /** `loopwire exec` on a completed task run as a custom agent with handoffs: the next steps it offers. */
    handoffs: z.array(HandoffOffer).optional(),
  }),
]);

/** Every event the agent emits: one of the above, and where a subagent emitted it, which (`agent`). */
export const AgentEvent = z.intersection(EventBody, z.object({ agent: SubagentRef.optional() }));

export type SubagentRef = z.infer<typeof SubagentRef>;
export type TurnMetrics = z.infer<typeof TurnMetrics>;
export type TransportState = z.infer<typeof TransportState>;
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent['type'];

/** Where the agent's events go. Must not throw; a consumer that can fail catches its own errors. */
export type AgentEventSink = (event: AgentEvent) => void;
