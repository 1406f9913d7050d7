import { t } from '@vscode/l10n';
import type { AgentEvent } from '../../../agent';
import type { ApprovalAsk, ChatEntry, DiffFile, ToolEntry } from '../../../protocol/chatView';
import { type ToolRegistry, backgroundCommandOf } from '../../../tools';
import { LiveDiff, type ReadText } from './liveDiff';
import { reviewFiles } from '../../review/reviewFiles';

// The tool calls of a conversation as the panel shows them, one card each: written (its input streaming in,
// the live diff of an edit beside it), run, then finished with its output and, for an edit, its review.
// A call streams under its output item's id until its call id is known. Plain Node: tested without VS Code.

/**
 * A tool's answer as shown on its card: the event's `shown` copy where it has one (in the person's language;
 * the model got its English), else its `output`. The model got all of it.
 */
const OUTPUT_SHOWN = 8_000;

const cut = (text: string) =>
  text.length > OUTPUT_SHOWN
    ? `${text.slice(0, OUTPUT_SHOWN)}\n${t('… ({0} more characters)', text.length - OUTPUT_SHOWN)}`
    : text;

/** What the cards need of the conversation they stand in (ChatModel). */
export interface CardBoard {
  entries(): readonly ChatEntry[];
  get(id: string): ChatEntry | undefined;
  /** Adds and sends. */
  add(entry: ChatEntry): void;
  /** Replaces (or adds) and sends. */
  replace(entry: ChatEntry): void;
  /** Takes a card in at the end without sending it: it goes with its next change. */
  adopt(entry: ChatEntry): void;
  remove(ids: ReadonlySet<string>): void;
}

export class ToolCards {
  /** Cards by the id of the output item streaming them, until their call id is known. */
  private readonly byItem = new Map<string, string>();
  private readonly diffs = new Map<string, LiveDiff>();
  /** Streamed input so far, by card id. */
  private readonly inputs = new Map<string, string>();

  constructor(
    private readonly board: CardBoard,
    /** The tools of the agent whose events come: how a call summarises and whether it previews as a diff. */
    private readonly tools: () => ToolRegistry,
    private readonly readText: ReadText,
    private readonly diffIntervalMs: number,
  ) {}

  /** More of a call's input: its card (made at the first delta), its summary and its live diff follow. */
  delta(event: Extract<AgentEvent, { type: 'tool_call_delta' }>): void {
    let id = this.byItem.get(event.itemId);
    if (id === undefined) {
      id = event.callId ?? `item:${event.itemId}`;
      this.byItem.set(event.itemId, id);
      this.board.add({ kind: 'tool', id, turn: event.turn, name: event.name, summary: '', status: 'streaming' });
      this.inputs.set(id, '');
      const kind = this.tools().liveDiff(event.name);
      if (kind) {
        // The card may be renamed to its call id before the diff's next update: look it up at each one.
        const item = event.itemId;
        const show = (diff: DiffFile[]) => {
          const card = this.byItem.get(item);
          if (card !== undefined) this.update(card, { diff });
        };
        this.diffs.set(id, new LiveDiff(kind, this.readText, show, this.diffIntervalMs));
      }
    }
    const input = (this.inputs.get(id) ?? '') + event.delta;
    this.inputs.set(id, input);
    this.diffs.get(id)?.append(event.delta);
    const summary = this.tools().summarize(event.name, input);
    const entry = this.board.get(id);
    if (entry?.kind === 'tool' && summary !== entry.summary) this.board.replace({ ...entry, summary });
  }

  /** The call runs: its card (renamed to its call id if it streamed under its item's) with the whole input's diff. */
  started(event: Extract<AgentEvent, { type: 'tool_started' }>): void {
    const tools = this.tools();
    const summary = tools.summarize(event.name, event.input);
    const paths = tools.paths(event.name, event.input);
    let entry = this.tool(event.callId);
    if (!entry) {
      // Streamed under its item id (the call id came with the finished item), or never streamed at all.
      const streamed = this.board
        .entries()
        .findLast(
          (e) => e.kind === 'tool' && e.status === 'streaming' && e.name === event.name && e.id.startsWith('item:'),
        );
      if (streamed?.kind === 'tool') {
        this.remove(new Set([streamed.id]));
        entry = { ...streamed, id: event.callId };
        this.board.adopt(entry);
        for (const [item, id] of this.byItem) if (id === streamed.id) this.byItem.set(item, event.callId);
      }
    }
    const diff = this.diffs.get(event.callId) ?? this.liveDiffFor(event.callId, event.name);
    const change: Partial<ToolEntry> = {
      status: 'running',
      summary,
      ...(paths.length > 0 ? { paths } : {}),
      ...(diff ? { diff: diff.finish(event.input) } : {}),
    };
    if (entry) this.board.replace({ ...entry, ...change });
    else
      this.board.add({
        kind: 'tool',
        id: event.callId,
        turn: event.turn,
        name: event.name,
        summary,
        status: 'running',
        ...change,
      });
  }

  /** The call's end: its status, duration and output, and an edit's review in place of its preview. */
  finished(event: Extract<AgentEvent, { type: 'tool_finished' }>): void {
    this.diffs.get(event.callId)?.dispose();
    this.diffs.delete(event.callId);
    this.inputs.delete(event.callId);
    const entry = this.tool(event.callId);
    if (!entry) return;
    const { diff: _shown, ask: _ask, ...rest } = entry;
    // A command that goes on in the background still runs: its card says so until it ends (backgroundCards.ts).
    const session = event.ok && !event.declined ? backgroundCommandOf(event.output) : undefined;
    this.board.replace({
      ...rest,
      ...(session === undefined
        ? { status: event.declined ? 'declined' : event.ok ? 'done' : 'failed', durationMs: event.durationMs }
        : { status: 'running', session }),
      output: cut(event.shown ?? event.output),
      ...(event.edits ? { diff: reviewFiles(event.edits) } : {}),
    });
  }

  /** Cards that leave the conversation (a discarded output): their live diffs stop, their items are forgotten. */
  remove(ids: ReadonlySet<string>): void {
    this.board.remove(ids);
    for (const id of ids) {
      this.diffs.get(id)?.dispose();
      this.diffs.delete(id);
    }
  }

  /** Forgets which output items streamed `ids`: a discarded turn's items never come back. */
  forgetItems(ids: ReadonlySet<string>): void {
    for (const [item, id] of this.byItem) if (ids.has(id)) this.byItem.delete(item);
  }

  /** Every card goes (a new chat, a reopened one): no live diff goes on, no item is remembered. */
  clear(): void {
    this.dispose();
    this.byItem.clear();
    this.inputs.clear();
  }

  dispose(): void {
    for (const diff of this.diffs.values()) diff.dispose();
    this.diffs.clear();
  }

  /** A call asking for approval, perhaps again (a Resume): an earlier end's output and duration no longer hold. */
  asking(callId: string, ask: ApprovalAsk): void {
    const entry = this.tool(callId);
    if (!entry) return;
    const { output: _output, durationMs: _duration, ...rest } = entry;
    this.board.replace({ ...rest, status: 'approval', ask });
  }

  /** A tool card's approval answered: its status, and its ask gone. */
  answered(callId: string, status: 'running' | 'declined'): void {
    const entry = this.tool(callId);
    if (!entry) return;
    const { ask: _ask, ...rest } = entry;
    this.board.replace({ ...rest, status });
  }

  private tool(callId: string): ToolEntry | undefined {
    const entry = this.board.get(callId);
    return entry?.kind === 'tool' ? entry : undefined;
  }

  /** A live diff's update: only until the call has run (its review card replaces the preview). */
  private update(id: string, change: Partial<ToolEntry>): void {
    const entry = this.board.get(id);
    if (entry?.kind === 'tool' && ['streaming', 'running', 'approval'].includes(entry.status))
      this.board.replace({ ...entry, ...change });
  }

  private liveDiffFor(id: string, name: string): LiveDiff | undefined {
    const kind = this.tools().liveDiff(name);
    if (!kind) return undefined;
    const diff = new LiveDiff(kind, this.readText, (files) => this.update(id, { diff: files }), this.diffIntervalMs);
    this.diffs.set(id, diff);
    return diff;
  }
}
