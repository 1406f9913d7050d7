import { t } from '@vscode/l10n';
import type { DiffFile, HunkState } from '../../protocol/chatView';
import type { EditedFile } from '../../protocol/edits';
import type { Workspace } from '../../workspace';
import { reviewFiles } from './reviewFiles';
import {
  ReviewRefused,
  type ReviewedEdit,
  reconcile,
  reviewHunk,
  reviewed,
  textBefore,
  undoEdits,
} from './reviewEdits';
import { messageOf } from '../chat/messageOf';

// The reviews of one conversation: every edit its tools wrote, hunk by hunk, with the state each hunk has
// in the files now. Actions go through here (the panel's buttons, the editor's Keep / Undo), and so do the
// files' changes (the editor's undo, a save, the user's typing): after each, the cards and the editor's
// marks are told what changed. Plain Node: the controller and the VS Code decorations both read it.

/** A hunk still waiting for a decision (applied, neither kept nor taken back), where it is now. */
export interface ReviewMark {
  callId: string;
  /** The workspace path (as the tools name it). */
  path: string;
  hunkId: string;
  /** The 0-based line where its new lines start now. */
  line: number;
  /** How many lines it added there (0: a pure deletion, between `line - 1` and `line`). */
  added: number;
  /** The lines it removed. */
  removed: readonly string[];
}

/** A review as the chat's snapshot keeps it. */
export interface SavedReview {
  callId: string;
  turn: number;
  files: EditedFile[];
  states: Record<string, Record<string, HunkState>>;
}

export class ReviewBook {
  private readonly edits = new Map<string, ReviewedEdit>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly workspace: () => Promise<Workspace>,
    /** A card's files changed: the controller shows them. */
    private readonly show: (callId: string, files: DiffFile[]) => void,
  ) {}

  /** Called after any review state changed (the editor's marks follow). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.edits.size;
  }

  /** An edit a tool just wrote: its hunks are read from the files as they are now. */
  async add(callId: string, turn: number, files: EditedFile[]): Promise<void> {
    const edit = reviewed(callId, turn, files);
    this.edits.set(callId, edit);
    await this.refresh(
      files.map((file) => file.path),
      [edit],
    );
  }

  clear(): void {
    this.edits.clear();
    this.changed();
  }

  saved(): SavedReview[] {
    return [...this.edits.values()].map((edit) => ({
      callId: edit.callId,
      turn: edit.turn,
      files: edit.files,
      states: Object.fromEntries([...edit.states].map(([path, states]) => [path, Object.fromEntries(states)])),
    }));
  }

  /** Takes back saved reviews (a reopened chat), then reads their states from the files as they are now. */
  async restore(saved: readonly SavedReview[]): Promise<void> {
    this.edits.clear();
    for (const review of saved) {
      const edit = reviewed(review.callId, review.turn, review.files);
      for (const [path, states] of Object.entries(review.states))
        for (const [id, state] of Object.entries(states)) edit.states.get(path)?.set(id, state);
      this.edits.set(edit.callId, edit);
    }
    await this.refresh(this.paths());
  }

  /** Every workspace path an edit of this chat wrote. */
  paths(): string[] {
    return [...new Set([...this.edits.values()].flatMap((edit) => edit.files.map((file) => file.path)))];
  }

  /** The card's files of `callId` with their states now (and `failed` on one file). */
  files(callId: string, failed?: { path: string; message: string }): DiffFile[] | undefined {
    const edit = this.edits.get(callId);
    if (!edit) return undefined;
    return reviewFiles(edit.files).map((file) => {
      const key = file.moveTo ?? file.path;
      const states = edit.states.get(key);
      return {
        ...file,
        ...(states ? { states: Object.fromEntries(states) } : {}),
        ...(failed && failed.path === key ? { error: failed.message } : {}),
      };
    });
  }

  /** Hunks waiting for a decision, for the editor's marks. */
  marks(): ReviewMark[] {
    return [...this.edits.values()].flatMap((edit) =>
      edit.files.flatMap((file) =>
        file.hunks.flatMap((hunk) => {
          const line = edit.lines.get(file.path)?.get(hunk.id);
          if (edit.states.get(file.path)?.get(hunk.id) !== 'applied' || line === undefined) return [];
          return [
            {
              callId: edit.callId,
              path: file.path,
              hunkId: hunk.id,
              line,
              added: hunk.newLines.length,
              removed: hunk.oldLines,
            },
          ];
        }),
      ),
    );
  }

  async hunk(callId: string, path: string, hunkId: string, action: 'accept' | 'reject'): Promise<void> {
    const edit = this.get(callId);
    const workspace = await this.workspace();
    try {
      await reviewHunk(workspace, edit, path, hunkId, action);
    } catch (error) {
      await this.refresh([path]);
      this.show(callId, this.files(callId, { path, message: messageOf(error) }) ?? []);
      throw error;
    }
    await this.refresh([path]);
    this.show(callId, this.files(callId) ?? []);
  }

  /** Takes back every hunk still standing of `turn`; how many it took back. */
  async undoTurn(turn: number): Promise<number> {
    const edits = [...this.edits.values()].filter((edit) => edit.turn === turn);
    const count = await undoEdits(await this.workspace(), edits);
    await this.refresh(edits.flatMap((edit) => edit.files.map((file) => file.path)));
    for (const edit of edits) this.show(edit.callId, this.files(edit.callId) ?? []);
    return count;
  }

  /** The text before `callId`'s standing hunks of `path`, on the file as it is now. */
  async before(callId: string, path: string): Promise<string> {
    return (await textBefore(await this.workspace(), this.get(callId), path)).before;
  }

  /**
   * Reads the states of the hunks in `paths` again from the files (the user or the editor changed them);
   * cards whose states changed are shown again. Paths no edit wrote cost nothing.
   */
  async refresh(paths: readonly string[], only?: readonly ReviewedEdit[]): Promise<void> {
    const edits = only ?? [...this.edits.values()];
    const wanted = new Set(paths);
    const touched = edits.filter((edit) => edit.files.some((file) => wanted.has(file.path)));
    if (touched.length === 0) return;
    const workspace = await this.workspace();
    const texts = new Map<string, string | undefined>();
    for (const path of wanted) {
      if (!touched.some((edit) => edit.files.some((file) => file.path === path))) continue;
      texts.set(path, (await workspace.tryReadFile(path).catch(() => undefined))?.text);
    }
    for (const edit of touched) {
      let changed = false;
      for (const file of edit.files)
        if (texts.has(file.path)) changed = reconcile(edit, file.path, texts.get(file.path)) || changed;
      if (changed || only) this.show(edit.callId, this.files(edit.callId) ?? []);
    }
    this.changed();
  }

  private get(callId: string): ReviewedEdit {
    const edit = this.edits.get(callId);
    if (!edit) throw new ReviewRefused(t('That edit can no longer be reviewed here (it is from an earlier session).'));
    return edit;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
