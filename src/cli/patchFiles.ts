// The minimal disk adapter of `loopwire apply-patch`: paths kept inside one folder, files read as exact
// text, and a plan written all or nothing (temp files next to the targets, then renames, undone on failure).
import { isInside as inside, realLocation } from '../workspace/shared/diskPaths';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** A patch path that may be read and written: where it really is on disk (symlinks resolved). */
export type Target = { ok: true; real: string } | { ok: false; reason: string };

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';

const hasGitSegment = (relative: string) => relative.split(/[\\/]+/).some((part) => part.toLowerCase() === '.git');

/**
 * Where `relative` (a path from the patch) lives under `root` (already a real path). Refused: empty,
 * absolute, with a `..` segment, under `.git/`, or leading out of `root` through a symlink.
 */
export function resolveTarget(root: string, relative: string): Target {
  if (relative === '' || relative.includes('\0')) return { ok: false, reason: 'an empty or malformed path' };
  if (path.isAbsolute(relative) || path.win32.isAbsolute(relative)) {
    return { ok: false, reason: 'an absolute path (paths are relative to the patch folder)' };
  }
  const parts = relative.split(/[\\/]+/);
  if (parts.includes('..')) return { ok: false, reason: "a path with '..' (paths must stay inside the folder)" };
  if (hasGitSegment(relative)) return { ok: false, reason: 'a path under .git/' };
  let real: string;
  try {
    real = realLocation(path.resolve(root, relative));
  } catch (error) {
    return {
      ok: false,
      reason: `a path that cannot be resolved (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!inside(root, real)) return { ok: false, reason: 'a path that leads out of the folder through a symlink' };
  if (hasGitSegment(path.relative(root, real)))
    return { ok: false, reason: 'a path that leads into .git/ through a symlink' };
  return { ok: true, real };
}

/** A file's bytes and its text, or undefined when it does not exist. */
export interface ReadFile {
  bytes: Buffer;
  text: string;
  mode: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads `real` exactly (BOM and line endings kept); refuses directories, binary and non-UTF-8 files. */
export async function readTarget(real: string): Promise<ReadFile | undefined | { refused: string }> {
  let stat;
  try {
    stat = await fs.stat(real);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!stat.isFile()) return { refused: 'is not a regular file' };
  const bytes = await fs.readFile(real);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { refused: 'is not UTF-8 text' };
  }
  if (text.includes('\0')) return { refused: 'looks binary (it contains NUL bytes)' };
  return { bytes, text, mode: stat.mode & 0o7777 };
}

export { type FileOps, type Write, commitWrites } from '../workspace/shared/atomicWrites';
