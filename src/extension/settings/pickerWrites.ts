import { TaskQueue } from '../runtime/taskQueue';

// The composer pickers' writes (windowComposer.ts), one at a time in the order picked. Two picks in quick succession
// (Down then Up) written at once raced in VS Code: its writes to the file are queued, but each then reloads the
// folder's settings on its own, and the first's reload could land last, leaving the first pick in force and
// echoed to the page. Until the last queued write is done the choices are not sent (the page keeps its latest
// pick); then one answer says what is in force, also after a write that failed or changed nothing.

export class PickerWrites {
  private readonly queue = new TaskQueue();
  private queued = 0;

  /** `settled` sends the choices in force: called when the last queued write has ended. */
  constructor(private readonly settled: () => void) {}

  /** A write is queued or running: the choices now may be a pick the user has already left. */
  get busy(): boolean {
    return this.queued > 0;
  }

  /** Runs `write` after those queued before it; its failure is the caller's, and does not stop the next. */
  async run(write: () => Promise<void>): Promise<void> {
    this.queued++;
    try {
      await this.queue.run(write);
    } finally {
      this.queued--;
      if (this.queued === 0) this.settled();
    }
  }
}
