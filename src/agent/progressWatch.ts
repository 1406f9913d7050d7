import { t } from '@vscode/l10n';
import type { CallItem } from '../protocol';
import { callSignature } from './toolRunner';

// What stops a task that goes round in circles, and only that: not a count of responses (a real task is many
// small reads), but responses that make no progress — each of its calls one that already failed, the same
// way, and fails again; or neither a call nor an answer. A few in a row stop the task, saying so; any progress
// starts the count again. The response count is only a hard ceiling, far above any real task.

/** Model responses one task may take at most: a ceiling, not the way a task stops. */
export const DEFAULT_MAX_TURNS = 500;

/** Responses in a row that make no progress before the task stops. */
export const NO_PROGRESS_LIMIT = 3;

export class ProgressWatch {
  /** The calls that failed in this task, by signature. */
  private readonly failedBefore = new Set<string>();
  private stalled = 0;

  /**
   * One response: its calls, those of them that failed, and whether it answered (or the user steered).
   * Returns false once the task has gone {@link NO_PROGRESS_LIMIT} responses in a row without progress.
   */
  record(calls: readonly CallItem[], failed: readonly string[], answered: boolean): boolean {
    const repeats =
      calls.length > 0 &&
      failed.length === calls.length &&
      calls.every((call) => this.failedBefore.has(callSignature(call)));
    const silent = calls.length === 0 && !answered;
    for (const signature of failed) this.failedBefore.add(signature);
    this.stalled = repeats || silent ? this.stalled + 1 : 0;
    return this.stalled < NO_PROGRESS_LIMIT;
  }

  /** How the task ends when it made no progress. */
  stop(): [status: 'stopped', reason: string, code: string] {
    return [
      'stopped',
      t(
        'the model made no progress in {0} responses in a row (the same failing call again, or neither a call nor an answer)',
        NO_PROGRESS_LIMIT,
      ),
      'no_progress',
    ];
  }
}
