import { readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';

// Where a path a command names really leads, as the kernel walks it: one component after another, each link
// followed as it is met, and `..` taken from where the link led rather than from its name (`p/..` with
// `p -> /proc/self` is /proc, not the folder holding p). Checking the text alone let `rg … p/../` read
// /proc/<pid>/environ. Also the names an unquoted pattern (`ls src/*`) stands for, since one of them may be a
// link that leads out.

/** Whether `target` is `root` or inside it. */
export function within(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The absolute path `candidate` (relative to `realCwd`, a path with no links in it) reaches on disk. Past the
 * first component that does not exist the rest is joined as written: the kernel stops there, and a program
 * that tidies `..` away itself is caught by the check of the text.
 */
export async function onDisk(realCwd: string, candidate: string): Promise<string> {
  let at = path.isAbsolute(candidate) ? path.parse(realCwd).root : realCwd;
  let exists = true;
  for (const part of candidate.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = path.dirname(at);
      continue;
    }
    at = path.join(at, part);
    if (!exists) continue;
    const real = await realpath(at).catch(() => undefined);
    if (real === undefined) exists = false;
    else at = real;
  }
  return at;
}

/** How many names one pattern may stand for before it is refused rather than checked one by one. */
export const GLOB_LIMIT = 2000;

/**
 * The paths an unquoted pattern may expand to (more rather than fewer: `[…]` and `?` match anything, and
 * dotfiles too), relative to `realCwd` as the pattern is; undefined past GLOB_LIMIT.
 */
export async function globPaths(realCwd: string, pattern: string): Promise<string[] | undefined> {
  let paths = [pattern.startsWith('/') ? '/' : ''];
  for (const part of pattern.split('/')) {
    if (part === '') continue;
    if (!/[*?[]/.test(part)) {
      paths = paths.map((at) => joinText(at, part));
      continue;
    }
    const matches = globRegExp(part);
    const next: string[] = [];
    for (const at of paths) {
      const names = await readdir(await onDisk(realCwd, at === '' ? '.' : at)).catch(() => []);
      for (const name of names) if (matches.test(name)) next.push(joinText(at, name));
      if (next.length > GLOB_LIMIT) return undefined;
    }
    paths = next;
  }
  return paths;
}

const joinText = (at: string, part: string) => (at === '' ? part : at.endsWith('/') ? at + part : `${at}/${part}`);

/** A pattern component as a regular expression that matches at least what the shell's would. */
function globRegExp(part: string): RegExp {
  const escaped = part.replace(/\[[^\]]*\]?|[*?]|[^*?[]+/g, (piece) =>
    piece === '*' || piece.startsWith('[') ? '.*' : piece === '?' ? '.' : piece.replace(/[.+^${}()|\\\]]/g, '\\$&'),
  );
  return new RegExp(`^${escaped}$`, 's');
}
