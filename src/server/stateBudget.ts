/**
 * One memory budget for every piece of response state the server holds (connection caches and the memory
 * store): past `maxBytes`, the least recently used entries are evicted, whoever holds them.
 */
export class StateBudget {
  private readonly entries = new Map<string, { bytes: number; evict: () => void }>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  /** Accounts `bytes` under `key` (replacing an earlier entry), then evicts the oldest others if over budget. */
  add(key: string, bytes: number, evict: () => void): void {
    this.remove(key);
    this.entries.set(key, { bytes, evict });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes || oldest === key) break;
      this.remove(oldest);
      entry.evict();
    }
  }

  /** Marks `key` as just used. */
  touch(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}
