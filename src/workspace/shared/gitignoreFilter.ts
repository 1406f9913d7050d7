import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The .gitignore files met so far on the way down: each applies to paths under its own folder. */
interface Level {
  /** Workspace-relative folder, '' for the root. */
  base: string;
  rules: Ignore;
}

/** Files that are never the model's business, ignored or not. */
const ALWAYS_SKIPPED = new Set(['.git']);

/**
 * Every file of the workspace that git would not ignore (root and nested `.gitignore`s), sorted, with `/`
 * separators. Symlinks to files are listed, links to folders never followed (a link can lead anywhere). Stops early past `limit`.
 */
export async function listFiles(root: string, limit = 200_000): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  let complete = true;
  const walk = async (dir: string, levels: Level[]): Promise<void> => {
    const absolute = path.join(root, dir);
    const entries = await fs.readdir(absolute, { withFileTypes: true }).catch(() => []);
    const here = entries.find((entry) => entry.name === '.gitignore' && entry.isFile());
    const rules = here ? await readRules(path.join(absolute, '.gitignore')) : undefined;
    const active = rules ? [...levels, { base: dir, rules }] : levels;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= limit) {
        complete = false;
        return;
      }
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      const isDir = entry.isDirectory();
      if (isIgnored(active, rel, isDir)) continue;
      if (isDir) await walk(rel, active);
      else if (entry.isFile() || (entry.isSymbolicLink() && (await linksToFile(path.join(absolute, entry.name)))))
        files.push(rel);
    }
  };
  await walk('', []);
  files.sort();
  return { files, complete };
}

/** A symlink is listed when it leads to a file (wherever: reading it checks that); links to folders are not walked. */
async function linksToFile(link: string): Promise<boolean> {
  const target = await fs.stat(link).catch(() => undefined);
  return target?.isFile() ?? false;
}

async function readRules(file: string): Promise<Ignore | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : ignore().add(text);
}

function isIgnored(levels: readonly Level[], rel: string, isDir: boolean): boolean {
  for (const level of levels) {
    const local = level.base === '' ? rel : rel.slice(level.base.length + 1);
    if (level.rules.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}
