import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseSkillFile } from './skillFile';

// Where skills are found, as the tools that defined the folders find them (Codex's loader, codex-rs/core
// src/skills/loader.rs, for the walk): under each root, folders breadth first, at most 6 levels down and 2,000
// folders a root, names starting with `.` skipped, links to folders followed; a folder holding a `SKILL.md`
// is a skill (its own subfolders are its scripts, references and assets, not looked into for more). The
// workspace's roots come first, then the user's; the same SKILL.md reached twice (`.claude/skills` a link to
// `.agents/skills`) counts once. Two skills of one name in different folders are both listed, as Codex lists
// them (docs/customize.md says what `$name` does then). Nothing here throws: what cannot be used is a problem
// naming its file.

/** The skill folders of a workspace folder (and of a folder below it), in the order they are read. */
export const WORKSPACE_SKILL_DIRS = ['.agents/skills', '.github/skills', '.claude/skills'] as const;
/** The user's skill folders, under the home folder, in the order they are read. */
export const USER_SKILL_DIRS = ['.agents/skills', '.copilot/skills', '.claude/skills'] as const;

/** Codex's limits on one root's walk. */
const MAX_DEPTH = 6;
const MAX_FOLDERS = 2000;
/** A SKILL.md larger than this is not read (the format asks for a short file: its details go in references/). */
export const SKILL_FILE_MAX_BYTES = 256 * 1024;

/** `workspace`: found in a workspace folder or below it; `user`: in the user's home folder. */
export type SkillScope = 'workspace' | 'user';

export interface Skill {
  name: string;
  description: string;
  /** Its SKILL.md, links resolved. */
  file: string;
  /** Its folder, links resolved: what read_file may read inside, for a user's skill. */
  folder: string;
  /** Its SKILL.md as the model names it to read_file: workspace-relative for the workspace's, absolute for the user's. */
  label: string;
  scope: SkillScope;
}

/** A SKILL.md that is not used, and why. */
export interface SkillProblem {
  /** The file as found (workspace-relative, or absolute for the user's). */
  file: string;
  problem: string;
}

export interface FoundSkills {
  skills: Skill[];
  problems: SkillProblem[];
  /** Workspace folders were read: the skills of folders below them may be found as the agent works there. */
  workspace: boolean;
}

/** One folder to walk, and how what it finds is named and bounded. */
interface Root {
  dir: string;
  scope: SkillScope;
  /** The real folder a workspace skill must stay inside (links leading out are not followed there). */
  inside?: string;
  /** What a workspace path is relative to (the workspace folder's real path), with its prefix for the model. */
  base?: { dir: string; prefix: string };
}

/** A workspace folder: its path, or its path and the name the workspace gives it (VS Code's, in a multi-root window). */
export type SkillFolder = string | { path: string; name: string };

/**
 * The skills of the workspace `folders` (their own skill folders, not those of folders below them: those
 * come as the agent works there, `findNestedSkills`) and of the user whose home folder is `home`.
 * In a workspace of several folders a workspace skill's path starts with its folder's name, as the tools' do.
 */
export async function findSkills(folders: readonly SkillFolder[], home: string | undefined): Promise<FoundSkills> {
  const roots: Root[] = [];
  for (const given of folders) {
    const folder = typeof given === 'string' ? given : given.path;
    const real = await realOrResolved(folder);
    const name = typeof given === 'string' ? path.basename(path.resolve(folder)) : given.name;
    const prefix = folders.length > 1 ? `${name}/` : '';
    for (const dir of WORKSPACE_SKILL_DIRS)
      roots.push({ dir: path.join(real, dir), scope: 'workspace', inside: real, base: { dir: real, prefix } });
  }
  if (home !== undefined && home !== '')
    for (const dir of USER_SKILL_DIRS) roots.push({ dir: path.join(home, dir), scope: 'user' });
  return { ...(await walkRoots(roots, home)), workspace: folders.length > 0 };
}

/**
 * The skills of a folder below a workspace folder: `folder` is where it is (`Workspace.locate`'s answer: its
 * workspace path, the workspace folder it is in and its absolute path); their paths are workspace paths.
 */
export async function findNestedSkills(folder: { path: string; root: string; absolute: string }): Promise<FoundSkills> {
  const inside = await realOrResolved(folder.root);
  const dir = await realOrResolved(folder.absolute);
  const roots = WORKSPACE_SKILL_DIRS.map((skills) => ({
    dir: path.join(dir, skills),
    scope: 'workspace' as const,
    inside,
    base: { dir, prefix: `${folder.path}/` },
  }));
  return { ...(await walkRoots(roots, undefined)), workspace: true };
}

async function walkRoots(roots: readonly Root[], home: string | undefined): Promise<Omit<FoundSkills, 'workspace'>> {
  const found: Omit<FoundSkills, 'workspace'> = { skills: [], problems: [] };
  const seen = new Set<string>();
  for (const root of roots) await walk(root, found, seen, home);
  const rank = (skill: Skill) => (skill.scope === 'workspace' ? 0 : 1);
  found.skills.sort((a, b) => rank(a) - rank(b) || compare(a.name, b.name) || compare(a.file, b.file));
  return found;
}

async function walk(
  root: Root,
  found: Omit<FoundSkills, 'workspace'>,
  seen: Set<string>,
  home: string | undefined,
): Promise<void> {
  const start = await fs.realpath(root.dir).catch(() => undefined);
  if (start === undefined || !(await isFolder(start))) return;
  const visited = new Set([start]);
  const queue: { dir: string; depth: number; shown: string }[] = [{ dir: start, depth: 0, shown: root.dir }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const names = await fs.readdir(next.dir).catch(() => [] as string[]);
    if (names.includes('SKILL.md') && next.depth > 0) {
      await take(root, path.join(next.dir, 'SKILL.md'), path.join(next.shown, 'SKILL.md'), found, seen, home);
      continue;
    }
    for (const name of names.sort()) {
      if (name.startsWith('.') || next.depth + 1 > MAX_DEPTH || visited.size >= MAX_FOLDERS) continue;
      const real = await fs.realpath(path.join(next.dir, name)).catch(() => undefined);
      if (real === undefined || visited.has(real) || !(await isFolder(real))) continue;
      visited.add(real);
      queue.push({ dir: real, depth: next.depth + 1, shown: path.join(next.shown, name) });
    }
  }
}

/** The skill of the SKILL.md at `file` (real) into `found`, or why not. */
async function take(
  root: Root,
  file: string,
  shown: string,
  found: Omit<FoundSkills, 'workspace'>,
  seen: Set<string>,
  home: string | undefined,
): Promise<void> {
  const real = await fs.realpath(file).catch(() => file);
  if (seen.has(real)) return;
  seen.add(real);
  const label = root.base ? labelIn(root.base, shown) : shown;
  const problem = (text: string) => void found.problems.push({ file: label, problem: text });
  const folder = path.dirname(real);
  // A link may lead a workspace skill out of the workspace: read_file could not read it, and it is not the team's.
  if (root.inside !== undefined && !within(root.inside, real))
    return problem('it leads out of the workspace through a symbolic link: not used');
  // A user's skill folder is where read_file may read: never the home folder itself or one above it.
  if (home !== undefined && root.scope === 'user' && within(folder, path.resolve(home)))
    return problem('its folder is the home folder or holds it: not used');
  let text: string;
  try {
    const stats = await fs.stat(real);
    // A FIFO (or a link to a device) would hold the read, and the task, for good.
    if (!stats.isFile()) return problem('it is not a regular file: not read');
    if (stats.size > SKILL_FILE_MAX_BYTES)
      return problem(`it is larger than ${SKILL_FILE_MAX_BYTES / 1024} KiB: not read`);
    text = await fs.readFile(real, 'utf8');
  } catch (error) {
    return problem(`it cannot be read: ${(error as Error).message}`);
  }
  const header = parseSkillFile(text, path.basename(path.dirname(shown)));
  if ('problem' in header) return problem(header.problem);
  const skillLabel = root.base ? label : real;
  found.skills.push({ ...header, file: real, folder, label: skillLabel, scope: root.scope });
}

/** `shown` (an absolute path under the workspace folder) as the tools name it. */
function labelIn(base: { dir: string; prefix: string }, shown: string): string {
  return base.prefix + path.relative(base.dir, shown).split(path.sep).join('/');
}

/** Whether `target` is `root` or inside it. */
export function within(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function isFolder(dir: string): Promise<boolean> {
  return (await fs.stat(dir).catch(() => undefined))?.isDirectory() === true;
}

async function realOrResolved(folder: string): Promise<string> {
  return fs.realpath(folder).catch(() => path.resolve(folder));
}
