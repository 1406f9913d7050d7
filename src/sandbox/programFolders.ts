import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The files of a program the user chose to run (an MCP server, a hook) that lie in the host's temporary
// folder, which every confined program sees replaced by a private one: a server unpacked under /tmp, a clone
// there. Named so that a confinement can show them read only (Confinement.readable).

/** What marks a program's own folder: the one its modules are found from. */
const PACKAGE_MARKS = ['package.json', 'node_modules', 'pyproject.toml', '.git'];

/**
 * Each absolute path among `words` (a shell line's words too) in the host's temporary folder, widened to its
 * package (the nearest folder above it holding a package.json, node_modules, pyproject.toml or .git, below
 * the temporary folder itself) so that the program finds its own modules. Paths that do not exist are left out.
 */
export function tempProgramFolders(words: readonly string[]): string[] {
  const temps = [...new Set(['/tmp', os.tmpdir()].flatMap(realOrNone))];
  const folders = words.flatMap(absolutePaths).flatMap((word) => {
    const real = realOrNone(word)[0];
    const temp = real && temps.find((t) => real.startsWith(`${t}${path.sep}`));
    return real && temp ? [packageOf(real, temp)] : [];
  });
  return [...new Set(folders)];
}

/** The absolute paths a word names: itself, or those inside a shell line (`sh -c 'exec node /tmp/s.mjs'`). */
function absolutePaths(word: string): string[] {
  return [...word.matchAll(/(?:^|[\s'"=:;&|(])(\/[^\s'"`;&|()<>]+)/g)].flatMap((match) => (match[1] ? [match[1]] : []));
}

function realOrNone(p: string): string[] {
  try {
    return [fs.realpathSync(p)];
  } catch {
    return [];
  }
}

/** The nearest folder above `file` (below `temp`) that holds a package mark, else `file`'s own folder. */
function packageOf(file: string, temp: string): string {
  const own = fs.statSync(file).isDirectory() ? file : path.dirname(file);
  for (let dir = own; dir !== temp && dir.startsWith(`${temp}${path.sep}`); dir = path.dirname(dir)) {
    if (PACKAGE_MARKS.some((mark) => fs.existsSync(path.join(dir, mark)))) return dir;
  }
  return own;
}
