import { type EditPreview, type FileSnapshot, previewEditFile, previewPatch } from '../../../edit';
import type { DiffFile } from '../../../protocol/chatView';
import { diffTail } from '../../../protocol/diffTail';
import type { LiveDiffKind } from '../../../tools';

// The diff of an edit while the model is still writing it: the edit engine's preview of the partial input
// against the files as they were when the call began, recomputed at most once per `intervalMs` (the
// preview re-plans the whole input, a few milliseconds for a big patch) and once more at the end.

/** Reads a file's text as it is now (an unsaved buffer's in the editor); undefined: there is no such file. */
export type ReadText = (path: string) => Promise<string | undefined>;

export function toDiffFiles(preview: EditPreview): DiffFile[] {
  const files: DiffFile[] = preview.files.map((file) => ({
    path: file.path,
    op: file.op,
    ...(file.moveTo === undefined ? {} : { moveTo: file.moveTo }),
    hunks: file.hunks,
    pending: file.pending,
    ...(file.error ? { error: file.error.message } : {}),
  }));
  const last = files.at(-1);
  if (preview.error && last && last.error === undefined) last.error = preview.error.message;
  return files;
}

export class LiveDiff {
  private input = '';
  private readonly snapshots = new Map<string, FileSnapshot>();
  /** Paths asked of the workspace, and those whose answer came. */
  private readonly requested = new Set<string>();
  private readonly loaded = new Set<string>();
  private lastAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    /** What the streamed input is (`liveDiffKind` of the tool that takes it). */
    private readonly kind: LiveDiffKind,
    private readonly readText: ReadText,
    /** Called with each new diff. */
    private readonly show: (files: DiffFile[]) => void,
    private readonly intervalMs = 50,
  ) {}

  /** More of the call's input arrived. */
  append(delta: string): void {
    this.input += delta;
    this.schedule();
  }

  /** The whole input is known (the call is complete): one last diff, at once. */
  finish(input: string): DiffFile[] {
    this.input = input;
    this.stopTimer();
    return this.compute();
  }

  dispose(): void {
    this.closed = true;
    this.stopTimer();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    const wait = Math.max(0, this.lastAt + this.intervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // While the call streams the card shows only a file's newest lines: only those are sent (diffTail.ts).
      if (!this.closed) this.show(this.compute().map((file) => (file.pending ? diffTail(file) : file)));
    }, wait);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private compute(): DiffFile[] {
    this.lastAt = performance.now();
    const preview =
      this.kind === 'patch' ? previewPatch(this.input, this.snapshots) : previewEditFile(this.input, this.snapshots);
    // A path seen for the first time is read (once) and the diff recomputed: until then a file that exists
    // would show as created.
    for (const file of preview.files)
      for (const path of [file.path, file.moveTo]) if (path !== undefined && !this.requested.has(path)) this.load(path);
    // Until a file's text has come, nothing about it is known yet: no hunks, and no error either (a file
    // not read yet looks missing to the planner).
    return toDiffFiles(preview).map((file) => {
      if (!this.requested.has(file.path) || this.loaded.has(file.path)) return file;
      const { error: _unknown, ...waiting } = file;
      return { ...waiting, hunks: [], pending: true };
    });
  }

  private load(path: string): void {
    this.requested.add(path);
    this.readText(path)
      .catch(() => undefined)
      .then((text) => {
        if (text !== undefined) this.snapshots.set(path, { text });
        this.loaded.add(path);
        if (!this.closed) this.schedule();
      })
      .catch(() => undefined);
  }
}
