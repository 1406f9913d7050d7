// A prompt-prefix cache, as inference servers keep: a context that starts like one seen recently has that
// prefix served from cache, whatever transport it came by (a repeated prefix is cheap over HTTP too). Keys
// are item-boundary chain hashes of (header, items), so lookups cost one probe per boundary.

export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  /** Tokens of the longest cached prefix among `keys` (one per boundary, shortest first), or 0. */
  longestPrefix(keys: readonly string[], tokensAt: readonly number[]): number {
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (key !== undefined && this.entries.has(key)) {
        this.touch(key);
        return tokensAt[i] ?? 0;
      }
    }
    return 0;
  }

  /** Remembers every boundary of a context just processed. */
  insert(keys: readonly string[], tokensAt: readonly number[]): void {
    keys.forEach((key, i) => {
      this.entries.delete(key);
      this.entries.set(key, tokensAt[i] ?? 0);
    });
    // Insertion order is recency order: drop the oldest beyond capacity.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private touch(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.entries.set(key, value);
  }
}
