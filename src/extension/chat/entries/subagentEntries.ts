import { t } from '@vscode/l10n';
import type { AgentEvent } from '../../../agent';
import type { ApprovalAsk, DiffFile, SubagentView, ToolCall, ToolEntry, WaitedAgent } from '../../../protocol/chatView';
import { SUBAGENT_TOOLS, SubagentStatus, type ToolRegistry } from '../../../tools';
import { LiveDiff, type ReadText } from './liveDiff';
import type { CardBoard } from './toolCards';

// Subagents in the chat (issue 49 item 4): each subagent's events (those with `agent`, src/agent/events.ts)
// go into the spawn_agent card that started it (`agent.parentCallId`), never into the conversation itself: its
// calls as cards of their own, its answer, where it stands. A wait card says which subagents it waited for and
// what each answered, in a line. A card is replaced, never changed, at each step (the snapshot keeps entries by
// identity), and only on a call's start or end, a message or the end: a subagent's streamed text is not sent.

/** What a nested card shows of a call's output: the host keeps less per call than for the chat's own cards. */
const OUTPUT_SHOWN = 2_000;

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

const cut = (text: string) =>
  text.length > OUTPUT_SHOWN
    ? `${text.slice(0, OUTPUT_SHOWN)}\n${t('… ({0} more characters)', text.length - OUTPUT_SHOWN)}`
    : text;

const firstLine = (text: string) => text.trim().split('\n', 1)[0] ?? '';

/** A JSON object's fields, or none (a model's arguments, a tool's output: input from strangers). */
function fieldsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** One subagent's place in a wait's answer, as its card line says it. */
function waitedOf(id: string, raw: unknown): WaitedAgent {
  const status = SubagentStatus.safeParse(raw);
  if (!status.success) return { id, state: 'running' };
  const value = status.data;
  if (typeof value === 'object' && 'completed' in value)
    return { id, state: 'done', ...(value.completed ? { line: firstLine(value.completed) } : {}) };
  if (typeof value === 'object') return { id, state: 'failed', line: firstLine(value.errored) };
  if (value === 'shutdown') return { id, state: 'closed' };
  return value === 'not_found' ? { id, state: 'unknown' } : { id, state: 'running' };
}

export class SubagentCards {
  /** Each spawn_agent call's task and type, from its arguments, until its subagent shows. */
  private readonly asked = new Map<string, { task: string; type?: string }>();
  /** Each wait call's ids, from its arguments: a wait that timed out answers none of them. */
  private readonly waits = new Map<string, string[]>();
  /** Each subagent's spawn card, by subagent id. */
  private readonly spawnCard = new Map<string, string>();
  /** The proposed diff of each of their edits until it has run: what its approval asks about, as the chat's own. */
  private readonly diffs = new Map<string, LiveDiff>();

  constructor(
    private readonly board: CardBoard,
    private readonly tools: () => ToolRegistry,
    private readonly readText: ReadText = () => Promise.resolve(undefined),
  ) {}

  /** The calls of subagent `id` that wait for the user's approval (its Stop declines them). */
  waiting(id: string): string[] {
    const view = this.card(this.spawnCard.get(id))?.subagent;
    return (view?.calls ?? []).flatMap((call) => (call.status === 'approval' ? [call.id] : []));
  }

  /** A subagent's call by its id (what an approval of it asks about), or none. */
  callById(callId: string): ToolCall | undefined {
    for (const cardId of new Set(this.spawnCard.values())) {
      const found = this.card(cardId)?.subagent?.calls.find((call) => call.id === callId);
      if (found) return found;
    }
    return undefined;
  }

  /** Takes a subagent's event (true), or leaves the chat's own to the chat (false). */
  handle(event: AgentEvent): boolean {
    const agent = event.agent;
    if (!agent) return false;
    this.spawnCard.set(agent.id, agent.parentCallId);
    if (event.type === 'tool_finished') this.endDiff(event.callId);
    const change = this.change(event);
    if (change) this.update(agent.id, change);
    if (event.type === 'tool_started') this.startDiff(agent.id, event);
    return true;
  }

  /** The chat's own spawn_agent and wait calls, after their cards took the event. */
  own(event: AgentEvent): void {
    if (event.agent) return;
    if (event.type === 'tool_started' && event.name === SUBAGENT_TOOLS.spawn) {
      const args = fieldsOf(event.input);
      const task = typeof args.message === 'string' ? args.message : '';
      const type = typeof args.agent_type === 'string' && args.agent_type !== '' ? args.agent_type : undefined;
      this.asked.set(event.callId, { task, ...(type ? { type } : {}) });
    } else if (event.type === 'tool_started' && event.name === SUBAGENT_TOOLS.wait) {
      const ids = fieldsOf(event.input).ids;
      this.waits.set(event.callId, Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : []);
    } else if (event.type === 'tool_finished' && event.name === SUBAGENT_TOOLS.spawn) {
      const id = fieldsOf(event.output).agent_id;
      if (typeof id === 'string') {
        this.spawnCard.set(id, event.callId);
        this.update(id, () => ({}));
      }
    } else if (event.type === 'tool_finished' && event.name === SUBAGENT_TOOLS.wait) this.waited(event);
  }

  /** A subagent's call asks for approval: its card says so (false: no subagent made that call). */
  asking(callId: string, ask: ApprovalAsk): boolean {
    return this.changeCall(callId, (call) => {
      const { output: _output, durationMs: _duration, ...rest } = call;
      return { ...rest, status: 'approval', ask };
    });
  }

  answered(callId: string, status: 'running' | 'declined'): boolean {
    return this.changeCall(callId, (call) => {
      const { ask: _ask, ...rest } = call;
      return { ...rest, status };
    });
  }

  clear(): void {
    this.asked.clear();
    this.waits.clear();
    this.spawnCard.clear();
    for (const id of [...this.diffs.keys()]) this.endDiff(id);
  }

  /**
   * An edit's proposed diff on its nested card, as the chat's own edits show theirs (toolCards.ts): its files
   * name what the approval asks about ("Apply edit to `a.txt`"), and the card shows the change before Allow.
   */
  private startDiff(id: string, event: Of<'tool_started'>): void {
    const kind = this.tools().liveDiff(event.name);
    if (!kind) return;
    const show = (diff: DiffFile[]) =>
      this.changeCall(event.callId, (call) =>
        ['running', 'approval'].includes(call.status) ? { ...call, diff } : call,
      );
    const live = new LiveDiff(kind, this.readText, show, 0);
    this.diffs.set(event.callId, live);
    show(live.finish(event.input));
  }

  private endDiff(callId: string): void {
    this.diffs.get(callId)?.dispose();
    this.diffs.delete(callId);
  }

  /** What `event` changes in its subagent's view, if anything. */
  private change(event: AgentEvent): ((view: SubagentView) => Partial<SubagentView>) | undefined {
    switch (event.type) {
      case 'turn_started':
        return (view) => (view.state === 'running' ? {} : { state: 'running', reason: undefined });
      case 'tool_started':
        return (view) => ({ calls: [...view.calls.filter((call) => call.id !== event.callId), this.call(event)] });
      case 'tool_finished':
        return (view) => ({ calls: view.calls.map((call) => (call.id === event.callId ? ended(call, event) : call)) });
      case 'message':
        return event.phase === 'commentary' || event.text === '' ? undefined : () => ({ answer: event.text });
      case 'done':
        return () => doneView(event);
      default:
        return undefined;
    }
  }

  private call(event: Of<'tool_started'>): ToolCall {
    const tools = this.tools();
    const paths = tools.paths(event.name, event.input);
    return {
      kind: 'tool',
      id: event.callId,
      turn: event.turn,
      name: event.name,
      summary: tools.summarize(event.name, event.input),
      ...(paths.length > 0 ? { paths } : {}),
      status: 'running',
    };
  }

  /** Replaces subagent `id`'s spawn card with its view changed (made at its first change). */
  private update(id: string, change: (view: SubagentView) => Partial<SubagentView>): void {
    const card = this.card(this.spawnCard.get(id));
    if (!card) return;
    const asked = this.asked.get(card.id);
    const view: SubagentView = card.subagent ?? {
      id,
      ...(asked?.type ? { type: asked.type } : {}),
      task: asked?.task ?? '',
      state: 'running',
      calls: [],
    };
    const next = { ...view, ...change(view) };
    if (next.reason === undefined) delete next.reason;
    this.board.replace({ ...card, subagent: next });
  }

  private changeCall(callId: string, change: (call: ToolCall) => ToolCall): boolean {
    for (const id of this.spawnCard.keys()) {
      const view = this.card(this.spawnCard.get(id))?.subagent;
      if (!view?.calls.some((call) => call.id === callId)) continue;
      this.update(id, (current) => ({
        calls: current.calls.map((call) => (call.id === callId ? change(call) : call)),
      }));
      return true;
    }
    return false;
  }

  private waited(event: Of<'tool_finished'>): void {
    const card = this.card(event.callId);
    if (!card) return;
    const status = fieldsOf(event.output).status;
    const answered = typeof status === 'object' && status !== null ? (status as Record<string, unknown>) : {};
    const ids = [...new Set([...(this.waits.get(event.callId) ?? []), ...Object.keys(answered)])];
    this.waits.delete(event.callId);
    if (ids.length > 0) this.board.replace({ ...card, waited: ids.map((id) => waitedOf(id, answered[id])) });
  }

  private card(id: string | undefined): ToolEntry | undefined {
    const entry = id === undefined ? undefined : this.board.get(id);
    return entry?.kind === 'tool' ? entry : undefined;
  }
}

/** A subagent's call at its end, as the chat's own cards end (toolCards.ts), its proposed diff gone with its ask. */
function ended(call: ToolCall, event: Of<'tool_finished'>): ToolCall {
  const { ask: _ask, diff: _proposed, ...rest } = call;
  return {
    ...rest,
    status: event.declined ? 'declined' : event.ok ? 'done' : 'failed',
    durationMs: event.durationMs,
    output: cut(event.shown ?? event.output),
  };
}

/** Where a subagent stands once its task ended: answered, stopped (by a Stop or close_agent), or failed, and why. */
function doneView(event: Of<'done'>): Partial<SubagentView> {
  if (event.status === 'completed') return { state: 'done' };
  if (event.status === 'cancelled') return { state: 'stopped', reason: undefined };
  return { state: 'failed', reason: event.reason ?? event.status };
}
