import * as fs from 'node:fs';
import * as path from 'node:path';

// The project instructions of a warm Send without reading them again (issue 36: a prompt's start stays
// fast). Every task's start asks for them; reading them is a dozen file-system calls, each a trip through
// libuv's thread pool and a turn of a busy extension host's event loop. So the answer is kept with the
// signature of every path the read looked at — each AGENTS.md and copilot-instructions.md, each `.git` that
// decided where the repository starts — and each later call stats those paths again, synchronously (a few
// microseconds each, no turn of the loop), and reads the files anew when any of them changed: a file
// written, created, deleted or replaced, a `.git` that appeared or went. A watcher would be cheaper still,
// but its event may come after the prompt that follows a save; a stat cannot.

/** A path's identity and last change, or undefined where nothing is there (or it cannot be looked at). */
export type Signature = string | undefined;

/** What a read looked at: each path with its signature from before it was read. */
export type Probes = Map<string, Signature>;

/** The signature of `file`: inode, size, modification and change times, in nanoseconds. */
export async function signatureOf(file: string): Promise<Signature> {
  try {
    return signature(await fs.promises.stat(file, { bigint: true }));
  } catch {
    return undefined;
  }
}

function signatureSync(file: string): Signature {
  try {
    const stats = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    return stats && signature(stats);
  } catch {
    return undefined; // EACCES, ENOTDIR: as the read saw it, nothing it could use.
  }
}

const signature = (s: fs.BigIntStats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/**
 * Whether a file looked at changed so shortly before the read that a change after it might keep its
 * signature (a file system that keeps times to the second, a rewrite of the same size): such an answer is
 * not kept, as git does not trust a file as old as its index (racy git).
 */
function racy(probes: Probes, readAt: number): boolean {
  for (const file of probes.keys()) {
    let mtimeMs: number | undefined;
    try {
      mtimeMs = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    } catch {
      mtimeMs = undefined;
    }
    if (mtimeMs !== undefined && mtimeMs > readAt - RACY_MS) return true;
  }
  return false;
}

/** How close to the read a change is too close to trust the times. */
const RACY_MS = 2_000;

/** A folder's real path, as the read resolves it. */
function realFolder(folder: string): string {
  try {
    return fs.realpathSync.native(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** What the read answers, as far as the cache looks into it (projectInstructions.ts has the whole shape). */
interface Found {
  /** The folders' real paths. */
  folders: readonly string[];
  /** Files that exist and could not be read. */
  unreadable: readonly string[];
}

type Read<T> = (folders: readonly string[], maxBytes: number, probes: Probes) => Promise<T>;

interface Entry<T> {
  key: string;
  found: T;
  probes: Probes;
}

export class InstructionsCache<T extends Found> {
  private entry: Entry<T> | undefined;
  /** Reads since this cache was made (for its tests: a hit reads nothing). */
  reads = 0;

  /** The instructions for `folders`: the last answer while nothing it looked at changed, else read now. */
  async find(folders: readonly string[], maxBytes: number, read: Read<T>): Promise<T> {
    const key = JSON.stringify([folders, maxBytes]);
    const entry = this.entry;
    if (entry?.key === key && this.unchanged(entry, folders)) return structuredClone(entry.found);
    const probes: Probes = new Map();
    this.reads++;
    const readAt = Date.now();
    const found = await read(folders, maxBytes, probes);
    this.entry = racy(probes, readAt) ? undefined : { key, found, probes };
    // A copy the caller may keep or change without touching the cache's.
    return structuredClone(found);
  }

  /** Forgets the answer: the next call reads. */
  clear(): void {
    this.entry = undefined;
  }

  private unchanged(entry: Entry<T>, folders: readonly string[]): boolean {
    // A folder that is a link may point elsewhere now.
    if (folders.some((folder, i) => realFolder(folder) !== entry.found.folders[i])) return false;
    for (const [file, known] of entry.probes) if (signatureSync(file) !== known) return false;
    // A file that could not be read is tried again: the user may be fixing its permissions.
    return entry.found.unreadable.length === 0;
  }
}
