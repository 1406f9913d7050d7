import type { ContextState } from './contextState';
import type { StateBudget } from './stateBudget';

/**
 * A socket's in-memory cache (docs/protocol.md §3.1): the responses it can chain from without reloading anything. The
 * latest response of each lane is always among the most recent entries; the oldest go first past `capacity`
 * or when the shared budget needs room. Gone with the socket.
 */
export class ConnectionCache {
  private readonly entries = new Map<string, ContextState>();

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

  set(responseId: string, state: ContextState): void {
    this.entries.delete(responseId);
    this.entries.set(responseId, state);
    this.budget.add(this.key(responseId), state.bytes, () => this.entries.delete(responseId));
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.delete(oldest);
    }
  }

  delete(responseId: string): void {
    this.entries.delete(responseId);
    this.budget.remove(this.key(responseId));
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
