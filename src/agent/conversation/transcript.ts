import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AnyInputItem } from '../../protocol';
import type { SubagentStatus } from '../../tools';
import {
  type ConversationRecord,
  type SessionHeader,
  type SubagentRecord,
  type SubagentStart,
  TranscriptRecord,
} from './transcriptRecords';

// A session's conversation, held whole in memory (the transport may need all of it at any moment) and
// appended to disk as it happens: JSON Lines, one file per session, one record per line, written before
// anything depends on it. A torn last line (a crash mid-write) is dropped on load; anything else that
// cannot be read is an error naming the line, since silently skipping it would change the conversation.
// A subagent's conversation is a transcript of its own kept in its parent's file (transcriptRecords.ts), so
// that a resumed task still knows its subagents: their ids, their answers, their conversations.

export { type SessionHeader, TranscriptRecord };

export class TranscriptError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'TranscriptError';
  }
}

/** A call the model made whose output is not in the transcript yet. */
export interface PendingCall {
  item: AnyInputItem & { type: 'function_call' | 'custom_tool_call'; call_id: string; name: string };
  /** It was started before the session stopped: it may have run. */
  started: boolean;
}

const CALL_TYPES = new Set(['function_call', 'custom_tool_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/** A subagent's conversation kept in its parent's file: what started it, and the last final status it had. */
export interface KeptSubagent {
  id: string;
  start: SubagentStart;
  transcript: Transcript;
  status: SubagentStatus | undefined;
}

/** What a subagent's start says besides when: the spawn call, its type and model, where a fork began. */
export type SubagentOrigin = Omit<SubagentStart, 'kind' | 'createdAt'>;

/** A note kept beside the conversation, after its first `at` items. */
export interface TranscriptNote {
  at: number;
  note: Record<string, unknown>;
}

export class Transcript {
  private readonly list: AnyInputItem[] = [];
  private readonly started = new Set<string>();
  private readonly noteList: TranscriptNote[] = [];
  private readonly kept = new Map<string, KeptSubagent>();

  private constructor(
    readonly header: SessionHeader,
    /** Where it is kept; undefined for a session held in memory only (or kept in its parent's file). */
    readonly file: string | undefined,
    /** A subagent's: where its records go (its parent's file, each wrapped in a record naming it). */
    private readonly out?: (records: readonly ConversationRecord[]) => void,
  ) {}

  /** A new session, written to `file` (created with its folder) when one is given. */
  static create(header: Omit<SessionHeader, 'kind' | 'version'>, file?: string): Transcript {
    const transcript = new Transcript({ kind: 'session', version: 1, ...header }, file);
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(transcript.header)}\n`, { flag: 'wx' });
    }
    return transcript;
  }

  /** Reads a session back to resume it; later records are appended to the same file. */
  static load(file: string): Transcript {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const torn = !text.endsWith('\n');
    let transcript: Transcript | undefined;
    let tornDropped = false;
    for (const [index, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const last = index === lines.length - 1;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        if (last && torn) {
          tornDropped = true;
          break;
        }
        throw new TranscriptError(file, `line ${index + 1} is not JSON`);
      }
      const record = TranscriptRecord.safeParse(value);
      if (!record.success) {
        if (last && torn) {
          tornDropped = true;
          break;
        }
        throw new TranscriptError(
          file,
          `line ${index + 1}: ${record.error.issues[0]?.message ?? 'not a transcript record'}`,
        );
      }
      if (!transcript) {
        if (record.data.kind !== 'session') throw new TranscriptError(file, 'the first line is not a session header');
        transcript = new Transcript(record.data, file);
      } else transcript.take(record.data);
    }
    if (!transcript) throw new TranscriptError(file, 'empty: no session header');
    // The records appended next must start on a line of their own: a torn last line is cut off; a whole
    // one that only lacks its newline gets it.
    if (tornDropped) fs.truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    else if (torn && text !== '') fs.appendFileSync(file, '\n');
    return transcript;
  }

  get items(): readonly AnyInputItem[] {
    return this.list;
  }

  /** The subagents whose conversations this file keeps, in the order they started. */
  get subagents(): readonly KeptSubagent[] {
    return [...this.kept.values()];
  }

  /**
   * A new transcript for subagent `id`, kept in this file from now on; a fork (`forkedAt`) holds this one's
   * first items, the very same objects, which are not written again. A subagent's own subagents (a depth
   * over 1) are held in memory only.
   */
  subagent(id: string, origin: SubagentOrigin): Transcript {
    const start: SubagentStart = { kind: 'start', ...origin, createdAt: new Date().toISOString() };
    if (this.out) return this.child(id, start, false);
    this.write([{ kind: 'subagent', agent: id, record: start }]);
    const transcript = this.child(id, start, true);
    this.kept.set(id, { id, start, transcript, status: undefined });
    return transcript;
  }

  /** Keeps subagent `id`'s final status (what a wait would tell): the last one kept is what it had. */
  keepStatus(id: string, status: SubagentStatus): void {
    const kept = this.kept.get(id);
    if (!kept) return;
    this.write([{ kind: 'subagent', agent: id, record: { kind: 'status', status } }]);
    kept.status = status;
  }

  /** The notes kept beside the conversation, in order (none of them is an item: the model never sees them). */
  get notes(): readonly TranscriptNote[] {
    return this.noteList;
  }

  /** Keeps `note` after the items so far (or after the first `at`), beside the conversation. */
  addNote(note: Record<string, unknown>, at = this.list.length): void {
    this.write([{ kind: 'note', at, note }]);
    this.noteList.push({ at, note });
  }

  /** Appends items (a user message, a response's output, a tool's output) and writes them. */
  append(...items: AnyInputItem[]): void {
    this.write(items.map((item) => ({ kind: 'item', item })));
    for (const item of items) this.list.push(item);
  }

  /** Puts `items` in at `at` (an index of `items` now), recording why: a compaction before the items that overflowed. */
  insert(at: number, items: AnyInputItem[], figures: { tokensBefore?: number; tokensAfter?: number } = {}): void {
    if (at > this.list.length)
      throw new RangeError(`cannot insert at ${at}: the transcript has ${this.list.length} items`);
    this.write([{ kind: 'inserted', at, items, reason: 'compaction', ...figures }]);
    this.list.splice(at, 0, ...items);
  }

  /** Records that a call is about to run. */
  markStarted(callId: string, name: string): void {
    this.write([{ kind: 'tool_started', callId, name }]);
    this.started.add(callId);
  }

  /** Calls without an output, in order (after a crash or a stop between a response and its tools). */
  pendingCalls(): PendingCall[] {
    const answered = new Set<string>();
    for (const item of this.list) {
      const record = item as { type?: unknown; call_id?: unknown };
      if (OUTPUT_TYPES.has(String(record.type)) && typeof record.call_id === 'string') answered.add(record.call_id);
    }
    const pending: PendingCall[] = [];
    for (const item of this.list) {
      const record = item as { type?: unknown; call_id?: unknown; name?: unknown };
      if (!CALL_TYPES.has(String(record.type)) || typeof record.call_id !== 'string') continue;
      if (answered.has(record.call_id)) continue;
      pending.push({ item: item as PendingCall['item'], started: this.started.has(record.call_id) });
    }
    return pending;
  }

  private take(record: TranscriptRecord): void {
    if (record.kind === 'subagent') this.takeSubagent(record.agent, record.record);
    else if (record.kind === 'item') this.list.push(record.item);
    else if (record.kind === 'tool_started') this.started.add(record.callId);
    else if (record.kind === 'inserted') this.list.splice(Math.min(record.at, this.list.length), 0, ...record.items);
    else if (record.kind === 'note') this.noteList.push({ at: record.at, note: record.note });
  }

  /** A subagent's record read back. One of a subagent whose start is not there has nothing to join: it is left. */
  private takeSubagent(id: string, record: SubagentRecord): void {
    if (record.kind === 'start') {
      this.kept.set(id, { id, start: record, transcript: this.child(id, record, true), status: undefined });
      return;
    }
    const kept = this.kept.get(id);
    if (!kept) return;
    if (record.kind === 'status') kept.status = record.status;
    else kept.transcript.take(record);
  }

  /** Subagent `id`'s transcript, a fork holding this one's first items; `keep`: its records go to this file. */
  private child(id: string, start: SubagentStart, keep: boolean): Transcript {
    const header: SessionHeader = {
      kind: 'session',
      version: 1,
      id,
      createdAt: start.createdAt,
      workspace: this.header.workspace,
      model: start.model,
    };
    const out = keep
      ? (records: readonly ConversationRecord[]) =>
          this.write(records.map((record) => ({ kind: 'subagent', agent: id, record })))
      : undefined;
    const child = new Transcript(header, undefined, out);
    if (start.forkedAt !== undefined) child.list.push(...this.list.slice(0, start.forkedAt));
    return child;
  }

  private write(records: readonly TranscriptRecord[]): void {
    if (records.length === 0) return;
    if (this.out) return this.out(records.filter(isConversationRecord));
    if (!this.file) return;
    // Synchronous: the record is on disk before the next step depends on it, in order.
    fs.appendFileSync(this.file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  }
}

const isConversationRecord = (record: TranscriptRecord): record is ConversationRecord =>
  record.kind !== 'session' && record.kind !== 'subagent';
