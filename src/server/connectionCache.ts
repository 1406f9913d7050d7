import type { ContextState } from './contextState';
import type { StateBudget } from './stateBudget';

/**
 * A socket's in-memory cache (docs/protocol.md §3.1): the responses it can chain from without reloading anything. The
 * latest response of each lane is always among the most recent entries; the oldest go first past `capacity`
 * or when the shared budget needs room. Gone with the socket.
 */
export class ConnectionCache {
  private readonly entries = new Map<string, ContextState>();
  /** The lane each entry was made on ('' the default lane): a request on another lane naming it is a fork. */
  private readonly lanes = new Map<string, string>();

  constructor(
    private readonly connectionId: string,
    private readonly capacity: number,
    private readonly budget: StateBudget,
  ) {}

  get(responseId: string): ContextState | undefined {
    const state = this.entries.get(responseId);
    if (state) {
      this.entries.delete(responseId);
      this.entries.set(responseId, state);
      this.budget.touch(this.key(responseId));
    }
    return state;
  }

  /** The lane `responseId` was made on, while it is held. */
  laneOf(responseId: string): string | undefined {
    return this.entries.has(responseId) ? this.lanes.get(responseId) : undefined;
  }

  set(responseId: string, state: ContextState, lane = ''): void {
    this.entries.delete(responseId);
    this.entries.set(responseId, state);
    this.lanes.set(responseId, lane);
    this.budget.add(this.key(responseId), state.bytes, () => this.forget(responseId));
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.delete(oldest);
    }
  }

  delete(responseId: string): void {
    this.forget(responseId);
    this.budget.remove(this.key(responseId));
  }

  private forget(responseId: string): void {
    this.entries.delete(responseId);
    this.lanes.delete(responseId);
  }

  /** Releases everything (the socket closed). */
  clear(): void {
    for (const responseId of [...this.entries.keys()]) this.delete(responseId);
  }

  get size(): number {
    return this.entries.size;
  }

  private key(responseId: string): string {
    return `${this.connectionId}/${responseId}`;
  }
}
