import { type ChatSnapshot, SnapshotWriter, setCurrentChat } from './chatSnapshot';
import { messageOf } from '../messageOf';

// What of the chat goes to disk for a reloaded window to find it again: its snapshot (chatSnapshot.ts),
// written once the panel has been quiet a moment and at once where it must be, and which chat is the
// current one. A write the panel can do without (a full disk) is logged, never in the user's way.

/** How long the snapshot may lag the panel while a task streams. */
const SAVE_INTERVAL_MS = 1_000;

export class ChatSaver {
  private timer: NodeJS.Timeout | undefined;
  /** Closed: the snapshot keeps what it had (a task running then shows as interrupted after a reload). */
  private closed = false;
  private readonly writer: SnapshotWriter;

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
    /** The chat as it stands; undefined while it has no transcript (nothing to save). */
    private readonly snapshot: () => ChatSnapshot | undefined,
  ) {
    this.writer = SnapshotWriter.of(dir, (error) => log(`chat panel: could not save the chat: ${messageOf(error)}`));
  }

  /** Saves once the panel has been quiet a moment (at most once a second while it streams). */
  soon(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => this.now(), SAVE_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** Saves now (the write itself goes off the host's thread; `flush` waits for none of it). */
  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const snapshot = this.closed ? undefined : this.snapshot();
    if (snapshot) void this.writer.save(snapshot);
  }

  /** What was saved is on disk when this returns (a chat about to be left or reopened). */
  flush(): void {
    this.writer.flush();
  }

  /** Chat `id` (undefined: none) is the one a reloaded window opens. */
  setCurrent(id: string | undefined): void {
    try {
      setCurrentChat(this.dir, id);
    } catch (error) {
      this.log(`chat panel: could not save the chat: ${messageOf(error)}`);
    }
  }

  /** The last save, on disk at once; nothing after it (the window is going). */
  close(): void {
    this.now();
    this.flush();
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Settles once no write of the folder's snapshots is under way (after `close`, none of this saver's follows). */
  settled(): Promise<void> {
    return this.writer.idle();
  }
}
