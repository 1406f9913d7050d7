import { t } from '@vscode/l10n';
import {
  type FileSnapshot,
  type Hunk,
  carryChange,
  hunkStanding,
  previewEditFile,
  previewPatch,
  revertHunk,
  withHunks,
} from '../../edit';
import type { LiveDiffKind } from '../../tools';
import type { HunkDecision } from './inlineNote';

// One inline edit of one file, as text (plain: tested without VS Code). While the model writes an edit call,
// its preview (the edit engine's, on the file as the call began) is carried into the buffer step by step;
// once the call has written the file, its hunks wait for Keep or Undo. Every step is a change carried onto
// the buffer as it is now (textChange.ts), so what the user typed elsewhere meanwhile stays, and Undo takes
// back the agent's lines only. The caller writes the texts returned here into the editor.

/** A hunk shown in the editor: where its new lines start now (0-based), what it added and removed. */
export interface InlineMark {
  hunkId: string;
  line: number;
  added: number;
  removed: readonly string[];
  /** Still being written (no Keep / Undo yet). */
  pending: boolean;
}

/** The edit's state before a step, to go back to when the editor refused to show the step. */
export interface InlineEditState {
  stream: Stream | undefined;
  hunks: Hunk[];
  shown: string;
  waiting: Hunk[];
  written: number;
  decided: Map<string, HunkDecision>;
}

/** An edit call being written, and what of it the buffer shows. */
interface Stream {
  id: string;
  kind: LiveDiffKind;
  /** The model's text of the file when the call began (what its preview is computed on). */
  base: string;
  input: string;
  /** The names the call gives the file (`./src/a.ts` is `src/a.ts`), each previewed on `base`. */
  names: Set<string>;
  hunks: Hunk[];
  /** `base` with `hunks`: what the buffer shows, apart from the user's own typing. */
  shown: string;
}

export class InlineEdit {
  private stream: Stream | undefined;
  /** Hunks the agent wrote, oldest first, still waiting for Keep or Undo. */
  private waiting: Hunk[] = [];
  /** Every hunk the agent wrote, oldest first, and what became of those decided (the chat's entry says it). */
  private readonly all: Hunk[] = [];
  private decided = new Map<string, HunkDecision>();
  /**
   * The texts the last call's preview showed, oldest first, the text it began on and what the tool wrote: the
   * editor's undo may land on one of those partial texts (when the user's typing cut the edit's undo step).
   */
  private trail: { steps: { shown: string; hunks: Hunk[] }[]; final?: string } | undefined;

  /** `same(path)`: whether a path as the model wrote it names this file. */
  constructor(private readonly same: (path: string) => boolean) {}

  /** A call is being written and shown. */
  get streaming(): boolean {
    return this.stream !== undefined;
  }

  /** How many written hunks wait for a decision. */
  get undecided(): number {
    return this.waiting.length;
  }

  /** Every hunk written into the file, oldest first. */
  get written(): readonly Hunk[] {
    return this.all;
  }

  /** What became of each written hunk decided so far. */
  get decisions(): ReadonlyMap<string, HunkDecision> {
    return this.decided;
  }

  /** The state now, for {@link restore}. */
  save(): InlineEditState {
    const { stream } = this;
    return {
      stream,
      hunks: stream?.hunks ?? [],
      shown: stream?.shown ?? '',
      waiting: [...this.waiting],
      written: this.all.length,
      decided: new Map(this.decided),
    };
  }

  /**
   * Back to `saved`: the step made since was not shown (the editor refuses an edit made on a version of the
   * document the user has typed past). A call's input that came meanwhile is kept: its next preview has it.
   */
  restore(saved: InlineEditState): void {
    this.stream = saved.stream;
    if (saved.stream) {
      saved.stream.hunks = saved.hunks;
      saved.stream.shown = saved.shown;
    }
    this.waiting = saved.waiting;
    this.all.length = saved.written;
    this.decided = saved.decided;
  }

  /** The file as the model must read it: `buffer` without the preview of a call still being written. */
  modelText(buffer: string): string | undefined {
    if (!this.stream) return buffer;
    const back = carryChange(this.stream.shown, this.stream.base, buffer);
    return back.ok ? back.value : undefined;
  }

  /**
   * An edit call `id` began streaming. One call is shown at a time: the preview of another still being
   * written (a response with two edit calls) comes out first, and the buffer's new text is returned then.
   */
  begin(id: string, kind: LiveDiffKind, buffer: string): string | undefined {
    const back = this.stream && this.stream.id !== id ? this.abandon(buffer, this.stream.id) : undefined;
    const base = back ?? buffer;
    this.stream = { id, kind, base, input: '', names: new Set(), hunks: [], shown: base };
    this.trail = { steps: [] };
    return back;
  }

  /**
   * More of call `id`'s input came: the buffer's new text, or undefined when the editor need not change (the
   * preview is the same, the call names another file, or the user's typing sits where the next lines go).
   */
  grow(id: string, delta: string, buffer: string): string | undefined {
    const stream = this.stream;
    if (!stream || stream.id !== id) return undefined;
    stream.input += delta;
    const hunks = this.preview(stream);
    const shown = withHunks(stream.base, hunks);
    if (shown === undefined || shown === stream.shown) return undefined;
    const next = carryChange(stream.shown, shown, buffer);
    if (!next.ok) return undefined;
    stream.hunks = hunks;
    stream.shown = shown;
    this.trail?.steps.push({ shown, hunks });
    return next.value;
  }

  /**
   * Call `id` wrote the file: `after` is its text as the tool made it from {@link modelText}, `hunks` what it
   * changed. Returns the buffer's text (normally the call's preview already is `after`; while another call's
   * preview is shown, this change goes in beside it); undefined when the buffer is no longer the text the
   * tool read (the caller refuses the write).
   */
  commit(id: string, buffer: string, before: string, after: string, hunks: readonly Hunk[]): string | undefined {
    if (this.modelText(buffer) !== before) return undefined;
    if (this.trail) this.trail.final = after;
    this.waiting.push(...hunks);
    this.all.push(...hunks);
    if (this.stream && this.stream.id !== id) {
      const beside = carryChange(before, after, buffer);
      if (beside.ok) return beside.value;
    }
    // This call's preview (or one in the way of its change) gives way to what the tool wrote.
    this.stream = undefined;
    return after;
  }

  /**
   * A call ended without writing the file: its preview comes out of the buffer (the new text, or undefined).
   * `id`: only if that call is the one shown.
   */
  abandon(buffer: string, id?: string): string | undefined {
    if (!this.stream || (id !== undefined && this.stream.id !== id)) return undefined;
    const text = this.modelText(buffer);
    this.stream = undefined;
    return text === buffer ? undefined : text;
  }

  /**
   * Reads what became of each written hunk from `buffer` (after any change of the document). A waiting hunk
   * taken back by the editor's undo is undone, one the user worked on since is kept (what they made of it
   * stays). `undoRedo`: the change was the editor's Undo or Redo, which may bring a hunk taken back (by the
   * Undo lens or an earlier undo) back into the file: it waits for Keep or Undo again. True when a hunk's
   * state changed.
   */
  reconcile(buffer: string, undoRedo: boolean): boolean {
    const waiting: Hunk[] = [];
    let changed = false;
    for (const hunk of this.all) {
      const waits = this.waiting.includes(hunk);
      // Typing decides only hunks still waiting (each read is a search of the text: an ended edit costs none).
      if (!waits && !undoRedo) continue;
      const side = hunkStanding(hunk, buffer).side;
      const was = this.decided.get(hunk.id);
      if (side === 'new' && (waits || (undoRedo && was !== 'kept'))) {
        waiting.push(hunk);
        changed ||= !waits;
        this.decided.delete(hunk.id);
      } else if (side === 'old' && (waits || undoRedo)) {
        changed ||= waits || was !== 'undone';
        this.decided.set(hunk.id, 'undone');
      } else if (waits) {
        changed = true;
        this.decided.set(hunk.id, 'kept');
      }
    }
    this.waiting = waiting;
    return changed;
  }

  /** The hunks shown in `buffer`: the written ones waiting for Keep or Undo, then the call being written. */
  marks(buffer: string): InlineMark[] {
    const marks: InlineMark[] = [];
    for (const hunk of this.waiting) {
      const standing = hunkStanding(hunk, buffer);
      if (standing.side === 'new') marks.push(this.mark(hunk, standing.line, false));
    }
    for (const hunk of this.stream?.hunks ?? []) {
      const standing = hunkStanding(hunk, buffer);
      if (standing.side === 'new') marks.push(this.mark(hunk, standing.line, true));
    }
    return marks;
  }

  /**
   * `buffer` (just changed by the editor's undo or redo) still holds a text the model was writing: `buffer`
   * without it (the user's typing elsewhere kept), else undefined. Asked only while the call streams or of a
   * {@link torn} text: the whole edit's text matches an earlier step too where its hunks lie apart.
   */
  partialBack(buffer: string): string | undefined {
    const trail = this.trail;
    // The latest step whose every hunk stands in `buffer` (read with its context, so that a step that only
    // removed lines is not taken for one whose lines are back).
    const step = [...(trail?.steps ?? [])]
      .reverse()
      .find(
        ({ shown, hunks }) =>
          shown !== trail?.final &&
          hunks.length > 0 &&
          hunks.every((hunk) => hunkStanding(hunk, buffer).side === 'new'),
      );
    let text = buffer;
    for (const hunk of [...(step?.hunks ?? [])].reverse()) {
      const back = revertHunk(hunk, text);
      if (!back.ok) return undefined;
      text = back.value;
    }
    return text === buffer ? undefined : text;
  }

  /** Whether a written hunk is neither whole in `buffer` nor taken back whole (an undo landed mid-edit). */
  torn(buffer: string): boolean {
    return this.all.some((hunk) => {
      const side = hunkStanding(hunk, buffer).side;
      return side !== 'new' && side !== 'old';
    });
  }

  /** The call being written is dropped as it stands: the editor's undo has taken its lines out already. */
  drop(): void {
    this.stream = undefined;
  }

  /** Keeps hunk `id`, or every written hunk. */
  keep(id?: string): void {
    for (const hunk of this.waiting) if (id === undefined || hunk.id === id) this.decided.set(hunk.id, 'kept');
    this.waiting = id === undefined ? [] : this.waiting.filter((hunk) => hunk.id !== id);
  }

  /**
   * Takes back hunk `id`, or all of the edit (a call being written too): the buffer's new text, or an error
   * naming the hunk whose lines the user changed since.
   */
  undo(buffer: string, id?: string): { ok: true; text: string } | { ok: false; message: string } {
    let text = id === undefined ? (this.modelText(buffer) ?? buffer) : buffer;
    if (id === undefined) this.stream = undefined;
    const taken = id === undefined ? [...this.waiting] : this.waiting.filter((hunk) => hunk.id === id);
    for (const hunk of taken.reverse()) {
      const back = revertHunk(hunk, text);
      // The engine's message is the model's (English, with an excerpt): the person gets a sentence of their own.
      if (!back.ok)
        return {
          ok: false,
          message:
            back.error.code === 'hunk_conflict'
              ? t('Its lines changed since, so this change no longer fits there.')
              : back.error.message,
        };
      text = back.value;
      this.waiting = this.waiting.filter((kept) => kept !== hunk);
      this.decided.set(hunk.id, 'undone');
    }
    return { ok: true, text };
  }

  private mark(hunk: Hunk, line: number, pending: boolean): InlineMark {
    return { hunkId: hunk.id, line, added: hunk.newLines.length, removed: hunk.oldLines, pending };
  }

  /** The hunks of the stream's input so far for this file, under every name the call gives it. */
  private preview(stream: Stream): Hunk[] {
    for (;;) {
      const snapshots = new Map<string, FileSnapshot>([...stream.names].map((name) => [name, { text: stream.base }]));
      const preview =
        stream.kind === 'patch' ? previewPatch(stream.input, snapshots) : previewEditFile(stream.input, snapshots);
      const fresh = preview.files.find((file) => !stream.names.has(file.path) && this.same(file.path));
      // A name seen for the first time is previewed again on the file: until then it looks like a new file.
      if (fresh) {
        stream.names.add(fresh.path);
        continue;
      }
      const mine = preview.files.find((file) => stream.names.has(file.path) && file.op === 'update');
      return mine && !mine.error ? mine.hunks : [];
    }
  }
}
