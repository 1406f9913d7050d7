import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { type AnyInputItem, AnyInputItem as InputItemSchema } from '../../protocol';

// A session's conversation, held whole in memory (the transport may need all of it at any moment) and
// appended to disk as it happens: JSON Lines, one file per session, one record per line, written before
// anything depends on it. A torn last line (a crash mid-write) is dropped on load; anything else that
// cannot be read is an error naming the line, since silently skipping it would change the conversation.

export const TranscriptRecord = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('session'),
    version: z.literal(1),
    id: z.string().min(1),
    createdAt: z.string(),
    workspace: z.string(),
    model: z.string(),
  }),
  z.object({ kind: z.literal('item'), item: InputItemSchema }),
  /** Written just before a tool runs: after a crash, a call with this and no output may have taken effect. */
  z.object({ kind: z.literal('tool_started'), callId: z.string(), name: z.string() }),
  /**
   * Items put in at `at` rather than at the end: a compaction asked for after the context overflowed
   * stands for what came before the items that did not fit, so it goes before them (agent-loop.md).
   */
  z.object({
    kind: z.literal('inserted'),
    at: z.int().nonnegative(),
    items: z.array(InputItemSchema),
    /** Why: `compaction` (the tokens before and after, for whoever reads the transcript). */
    reason: z.literal('compaction'),
    tokensBefore: z.int().nonnegative().optional(),
    tokensAfter: z.int().nonnegative().optional(),
  }),
  /**
   * What the user should find where it happened that is no part of the conversation, never sent to the model:
   * an inline edit done beside a chat (the panel's entry for it). `at`: how many items came before it.
   */
  z.object({ kind: z.literal('note'), at: z.int().nonnegative(), note: z.record(z.string(), z.unknown()) }),
]);
export type TranscriptRecord = z.infer<typeof TranscriptRecord>;
export type SessionHeader = Extract<TranscriptRecord, { kind: 'session' }>;

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

/** A note kept beside the conversation, after its first `at` items. */
export interface TranscriptNote {
  at: number;
  note: Record<string, unknown>;
}

export class Transcript {
  private readonly list: AnyInputItem[] = [];
  private readonly started = new Set<string>();
  private readonly noteList: TranscriptNote[] = [];

  private constructor(
    readonly header: SessionHeader,
    /** Where it is kept; undefined for a session held in memory only. */
    readonly file: string | undefined,
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
    if (record.kind === 'item') this.list.push(record.item);
    else if (record.kind === 'tool_started') this.started.add(record.callId);
    else if (record.kind === 'inserted') this.list.splice(Math.min(record.at, this.list.length), 0, ...record.items);
    else if (record.kind === 'note') this.noteList.push({ at: record.at, note: record.note });
  }

  private write(records: TranscriptRecord[]): void {
    if (!this.file || records.length === 0) return;
    // Synchronous: the record is on disk before the next step depends on it, in order.
    fs.appendFileSync(this.file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  }
}
