import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { AnyInputItem, ResponseObject } from '../protocol';
import type { StateBudget } from './stateBudget';

// `store: true` responses: kept for `GET /v1/responses/{id}` and for chaining by id where no connection holds
// the state (HTTP, a new socket). In memory, or on disk with --store-dir (then across restarts). Chaining
// from here reloads the chain link by link, as a stateless server must.

/** One stored response: its object, the input it added, and the stored response it continued (if any). */
export const StoredResponse = z.object({
  response: ResponseObject,
  /** The items before the output that the parent chain does not hold (all of them when `parent` is null). */
  input: z.array(AnyInputItem),
  parent: z.string().nullable(),
});
export type StoredResponse = z.infer<typeof StoredResponse>;

const ID = /^[A-Za-z0-9_-]{1,128}$/;

export class ResponseStore {
  private readonly memory = new Map<string, StoredResponse>();
  /** Ids on disk, oldest first (only with a directory). */
  private readonly onDisk = new Set<string>();
  /** The newest file's modification time (ms): each file written gets a later one. */
  private newest = 0;

  private constructor(
    private readonly dir: string | undefined,
    private readonly capacity: number,
    private readonly budget: StateBudget,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens a store; with `dir`, indexes the responses a previous run left there. */
  static async open(
    dir: string | undefined,
    capacity: number,
    budget: StateBudget,
    log: (line: string) => void,
  ): Promise<ResponseStore> {
    const store = new ResponseStore(dir, capacity, budget, log);
    if (dir) {
      await fs.promises.mkdir(dir, { recursive: true });
      // Only files this store could have written: a stray `my notes.json` is no id, and would break eviction.
      const names = (await fs.promises.readdir(dir)).filter(
        (name) => name.endsWith('.json') && ID.test(name.slice(0, -5)),
      );
      const dated = await Promise.all(
        names.map(async (name) => ({
          id: name.slice(0, -5),
          at: (await fs.promises.stat(path.join(dir, name))).mtimeMs,
        })),
      );
      for (const { id, at } of dated.sort((a, b) => a.at - b.at)) {
        store.onDisk.add(id);
        store.newest = Math.max(store.newest, at);
      }
    }
    return store;
  }

  async put(entry: StoredResponse): Promise<void> {
    const id = entry.response.id;
    const text = JSON.stringify(entry);
    this.remember(id, entry, text.length * 2);
    if (!this.dir) return;
    const file = this.file(id);
    const temp = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(temp, text);
    // The order of the files is the order of eviction after a restart. The file system's clock is coarse
    // (a few ms), so two files written in a row could share a time and come back in any order: each file is
    // dated at least 1 ms after the one before.
    this.newest = Math.max(Date.now(), this.newest + 1);
    await fs.promises.utimes(temp, this.newest / 1000, this.newest / 1000);
    await fs.promises.rename(temp, file);
    this.onDisk.delete(id);
    this.onDisk.add(id);
    for (const oldest of this.onDisk) {
      if (this.onDisk.size <= this.capacity) break;
      this.onDisk.delete(oldest);
      // A copy loaded into memory after a restart must go too, or an evicted id would still answer.
      if (this.memory.delete(oldest)) this.budget.remove(this.key(oldest));
      await fs.promises.rm(this.file(oldest), { force: true }).catch((error: unknown) => {
        this.log(`store: cannot evict ${this.file(oldest)}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const cached = this.memory.get(id);
    if (cached) {
      this.budget.touch(this.key(id));
      return cached;
    }
    if (!this.dir || !ID.test(id) || !this.onDisk.has(id)) return undefined;
    let text: string;
    try {
      text = await fs.promises.readFile(this.file(id), 'utf8');
    } catch {
      this.onDisk.delete(id);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = StoredResponse.safeParse(json);
    if (!parsed.success) {
      this.log(`store: ${this.file(id)} is not a stored response; ignoring it`);
      return undefined;
    }
    this.remember(id, parsed.data, text.length * 2);
    return parsed.data;
  }

  /** The whole context of a stored response (every link's input and output), or undefined if a link is gone. */
  async loadChain(id: string): Promise<AnyInputItem[] | undefined> {
    const links: StoredResponse[] = [];
    for (let next: string | null = id; next !== null;) {
      const entry = await this.get(next);
      if (!entry) return undefined;
      links.push(entry);
      next = entry.parent;
    }
    return links.reverse().flatMap((link) => [...link.input, ...(link.response.output ?? [])]);
  }

  async has(id: string): Promise<boolean> {
    return (await this.get(id)) !== undefined;
  }

  get size(): number {
    return this.dir ? this.onDisk.size : this.memory.size;
  }

  private remember(id: string, entry: StoredResponse, bytes: number): void {
    this.memory.delete(id);
    this.memory.set(id, entry);
    this.budget.add(this.key(id), bytes, () => this.memory.delete(id));
    for (const oldest of this.memory.keys()) {
      if (this.memory.size <= this.capacity) break;
      this.memory.delete(oldest);
      this.budget.remove(this.key(oldest));
    }
  }

  private key(id: string): string {
    return `store/${id}`;
  }

  private file(id: string): string {
    if (!this.dir || !ID.test(id)) throw new Error(`not a storable response id: ${id}`);
    return path.join(this.dir, `${id}.json`);
  }
}
