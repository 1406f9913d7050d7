// Writes a set of file changes all or nothing: temp files next to the targets, a check that nothing changed
// meanwhile, then renames; any failure undoes what was done. Shared by the Node adapter and `loopwire apply-patch`.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';

/** One change to make: new bytes for `real` (null deletes it); `original` is what must still be there. */
export interface Write {
  real: string;
  bytes: Buffer | null;
  original: Buffer | null;
  mode?: number;
}

/** The file operations `commitWrites` uses; tests replace one to fail on purpose. */
export interface FileOps {
  rename: (from: string, to: string) => Promise<void>;
}

const sibling = (real: string, kind: 'tmp' | 'bak') =>
  path.join(
    path.dirname(real),
    `.${path.basename(real)}.loopwire-${process.pid}-${randomBytes(4).toString('hex')}.${kind}`,
  );

async function currentBytes(real: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(real);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Creates the missing folders above `real`, returning those it created (outermost first). */
async function makeParents(real: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    try {
      await fs.stat(dir);
      break;
    } catch (error) {
      if (!isMissing(error) || path.dirname(dir) === dir) throw error;
      missing.unshift(dir);
    }
  }
  for (const dir of missing) await fs.mkdir(dir);
  return missing;
}

type Done =
  | { kind: 'replaced'; write: Write }
  | { kind: 'created'; real: string }
  | { kind: 'deleted'; real: string; backup: string };

/** Undoes the steps done so far, newest first; returns the files it could not restore. */
async function undo(done: readonly Done[], ops: FileOps): Promise<string[]> {
  const failed: string[] = [];
  for (const step of [...done].reverse()) {
    try {
      if (step.kind === 'created') await fs.rm(step.real, { force: true });
      else if (step.kind === 'deleted') await ops.rename(step.backup, step.real);
      else if (step.write.original) {
        const temp = sibling(step.write.real, 'tmp');
        await fs.writeFile(temp, step.write.original, { mode: step.write.mode });
        await ops.rename(temp, step.write.real);
      }
    } catch {
      failed.push(step.kind === 'replaced' ? step.write.real : step.real);
    }
  }
  return failed;
}

/**
 * Writes every change or none: stages temp files next to the targets, checks nothing changed meanwhile,
 * then renames; on any failure undoes what was done (and the folders it made) and throws.
 */
export async function commitWrites(writes: readonly Write[], ops: FileOps = { rename: fs.rename }): Promise<void> {
  const temps = new Map<Write, string>();
  const createdDirs: string[] = [];
  const done: Done[] = [];
  try {
    for (const write of writes) {
      if (!write.bytes) continue;
      createdDirs.push(...(await makeParents(write.real)));
      const temp = sibling(write.real, 'tmp');
      temps.set(write, temp);
      await fs.writeFile(temp, write.bytes, { flag: 'wx', mode: write.mode ?? 0o666 });
      if (write.mode !== undefined) await fs.chmod(temp, write.mode);
    }
    for (const write of writes) {
      const now = await currentBytes(write.real);
      const same = now === null || write.original === null ? now === write.original : now.equals(write.original);
      if (!same) throw new Error(`${write.real} changed while the patch was being applied`);
    }
    for (const write of writes) {
      const temp = temps.get(write);
      if (temp === undefined) {
        const backup = sibling(write.real, 'bak');
        await ops.rename(write.real, backup);
        done.push({ kind: 'deleted', real: write.real, backup });
        continue;
      }
      await ops.rename(temp, write.real);
      temps.delete(write);
      done.push(write.original ? { kind: 'replaced', write } : { kind: 'created', real: write.real });
    }
  } catch (error) {
    const failed = await undo(done, ops);
    for (const temp of temps.values()) await fs.rm(temp, { force: true });
    // Only folders this call made, and only if empty again; a folder that is not is left alone.
    for (const dir of createdDirs.reverse()) await fs.rmdir(dir).catch(() => undefined);
    if (failed.length > 0) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`${why}; undoing it also failed for ${failed.join(', ')}`);
    }
    throw error;
  }
  for (const step of done) if (step.kind === 'deleted') await fs.rm(step.backup, { force: true });
}
