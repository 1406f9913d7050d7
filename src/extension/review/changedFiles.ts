import type { Workspace } from '../../workspace';
import type { ReviewBook } from './reviewBook';

// Files changed outside the review (the editor's undo, a save, the user's typing), gathered for a quiet
// moment and then handed to the review, whose hunks in those files read their states again.

/** Files' changes are read after this quiet time (an editor's undo fires several events). */
const REFRESH_DELAY_MS = 100;

export class ChangedFiles {
  private readonly waiting = new Set<string>();
  private pending: { promise: Promise<void>; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly workspace: () => Promise<Workspace>,
    private readonly reviews: ReviewBook,
  ) {}

  /** These files changed (absolute paths); resolves once the review has read them again. */
  async add(absolutePaths: readonly string[]): Promise<void> {
    if (this.reviews.size === 0) return;
    for (const file of absolutePaths) this.waiting.add(file);
    if (!this.pending) {
      let timer: NodeJS.Timeout | undefined;
      const promise = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.pending = undefined;
          void this.refresh().finally(resolve);
        }, REFRESH_DELAY_MS);
      });
      this.pending = { promise, timer: timer as NodeJS.Timeout };
    }
    await this.pending.promise;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending.timer);
  }

  private async refresh(): Promise<void> {
    const changed = new Set(this.waiting);
    this.waiting.clear();
    const workspace = await this.workspace();
    const paths = this.reviews.paths().filter((path) => {
      try {
        return changed.has(workspace.locate(path).absolute);
      } catch {
        return false;
      }
    });
    if (paths.length > 0) await this.reviews.refresh(paths);
  }
}
