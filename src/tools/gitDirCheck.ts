import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { within } from './pathOnDisk';

// Which git directory a command would use, and whether its config lets git run a program while it only
// reads. A repository can ship a second git directory under any name (`vendor/cache` with HEAD, objects/,
// refs/ and a config naming a filter): git run inside it takes that one, so no command runs unasked there
// (nor inside any `.git`). Elsewhere git finds the repository through `.git`, and its config is read here:
// what the run line cannot turn off (commandSafety.ts adds -c options for fsmonitor, the pager, hooks,
// transports), refuses the command. Filters (`filter.<name>.clean` runs on git status and diff) have no off
// switch, an include reads another file (followed and judged too), a promisor remote makes a read fetch.

/** Sections whose every key can run a program or reach the network, in a config a read may use. */
const REFUSED_SECTIONS = new Set(['filter', 'protocol', 'credential', 'gpg']);
/** Keys that do, in any section: a fetch of missing objects, another work tree, transports and editors. */
const REFUSED_KEYS = new Set([
  'promisor',
  'partialclone',
  'partialclonefilter',
  'worktree',
  'sshcommand',
  'askpass',
  'editor',
  'gitproxy',
  'alternaterefscommand',
  'vcs',
  'uploadpack',
  'receivepack',
  'packobjectshook',
]);
/** Configs read per command, includes and submodules' configs counted: past this it is not checked, but refused. */
const CONFIG_LIMIT = 100;

const kind = (file: string) =>
  stat(file).then(
    (stats) => (stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'other'),
    () => undefined,
  );

/** Whether git would take `dir` for a git directory: HEAD with objects/, refs/ or commondir; or config with refs/. */
async function looksLikeGitDir(dir: string): Promise<boolean> {
  const [head, config, objects, refs, commondir] = await Promise.all(
    ['HEAD', 'config', 'objects', 'refs', 'commondir'].map((name) => kind(path.join(dir, name))),
  );
  return (
    (head === 'file' && (objects === 'dir' || refs === 'dir' || commondir === 'file')) ||
    (config === 'file' && refs === 'dir')
  );
}

/** Why nothing may run unasked in `realCwd`: it is inside a git directory (the workspace's own `.git` too). */
export async function gitDirReason(realCwd: string, realRoot: string): Promise<string | undefined> {
  for (let dir = realCwd; within(realRoot, dir); dir = path.dirname(dir)) {
    if (path.basename(dir).toLowerCase() === '.git' || (await looksLikeGitDir(dir)))
      return `it runs inside ${path.relative(realRoot, dir) || 'the workspace folder'}, a git directory, whose config git would use (and it may name programs)`;
    if (dir === realRoot) break;
  }
  return undefined;
}

/**
 * The git directory git finds from `realCwd`: the first `.git` up the tree (a folder, or a file naming one);
 * or why it may not be used: a `.git` file in the workspace names a git directory outside it (another of the
 * user's repositories, whose history git would print) that is no worktree of it, as a worktree's names its
 * `.git` file back.
 */
async function findGitDir(
  realCwd: string,
  realRoot: string,
): Promise<{ gitDir: string } | { reason: string } | undefined> {
  for (let dir = realCwd; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const found = await kind(dotGit);
    if (found === 'dir') return { gitDir: dotGit };
    if (found === 'file') {
      const gitDir = await named(dotGit, dir);
      if (gitDir === undefined) return undefined;
      if (!within(realRoot, dir) || within(realRoot, gitDir)) return { gitDir };
      const back = await named(path.join(gitDir, 'gitdir'), gitDir);
      return back === dotGit
        ? { gitDir }
        : { reason: `${path.relative(realRoot, dotGit)} names ${gitDir}, a git directory outside the workspace` };
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** The path a `.git` file (`gitdir: …`) or a worktree's `gitdir` file names, links resolved. */
async function named(file: string, from: string): Promise<string | undefined> {
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  const target = text.replace(/^gitdir: */, '');
  return target === '' ? undefined : realpath(path.resolve(from, target)).catch(() => path.resolve(from, target));
}

/** Why a git command run in `realCwd` is not read-only, by its repository's config; undefined if it is. */
export async function gitConfigReason(realCwd: string, realRoot: string): Promise<string | undefined> {
  const found = await findGitDir(realCwd, realRoot);
  if (found === undefined) return undefined;
  if ('reason' in found) return found.reason;
  const queue = await repositoryConfigs(found.gitDir);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    if (seen.size >= CONFIG_LIMIT)
      return 'the repository has more config files (includes, submodules) than are checked';
    seen.add(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const judged = judgeConfig(text);
    if (typeof judged === 'string')
      return `the repository's config ${file} sets ${judged}, with which git may run a program or read outside the workspace`;
    queue.push(...judged.map((include) => path.resolve(path.dirname(file), include)));
  }
  return undefined;
}

/** The configs git reads in `gitDir`: its own, its worktree's, the common one, and its submodules'. */
async function repositoryConfigs(gitDir: string): Promise<string[]> {
  const common = (await readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => undefined))?.trim();
  const commonDir = common ? path.resolve(gitDir, common) : gitDir;
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree'), path.join(commonDir, 'config')];
  return [...files, ...(await moduleConfigs(path.join(commonDir, 'modules'), 3))];
}

/** The configs of the submodules under `modules` (git status looks into each submodule, with its config). */
async function moduleConfigs(modules: string, depth: number): Promise<string[]> {
  if (depth === 0) return [];
  const entries = await readdir(modules, { withFileTypes: true }).catch(() => []);
  const configs: string[] = [];
  for (const entry of entries.filter((each) => each.isDirectory()).slice(0, CONFIG_LIMIT)) {
    const dir = path.join(modules, entry.name);
    configs.push(path.join(dir, 'config'), ...(await moduleConfigs(path.join(dir, 'modules'), depth - 1)));
  }
  return configs;
}

/**
 * A refused key (`filter.clean`), or the files the config includes. Every line is read as a section header or
 * a key, a continued value's lines too: reading more keys than git does refuses more, never less.
 */
export function judgeConfig(text: string): string | string[] {
  const includes: string[] = [];
  let section = '';
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n|\r/)) {
    let line = raw.trim();
    const header = /^\[([^\]]*)\]?/.exec(line);
    if (header) {
      section =
        (header[1] ?? '')
          .trim()
          .split(/[\s."]/, 1)[0]
          ?.toLowerCase() ?? '';
      line = line.slice(header[0].length).trim();
    }
    // A key alone (or before a comment) is a boolean set to true: `promisor ; x` is a promisor remote.
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=.*|[#;].*)?$/.exec(line);
    const name = key?.[1]?.toLowerCase();
    if (name === undefined) continue;
    if (REFUSED_SECTIONS.has(section) || REFUSED_KEYS.has(name)) return `${section}.${name}`;
    if ((section === 'include' || section === 'includeif') && name === 'path') {
      const value = key?.[2]?.startsWith('=') ? key[2].slice(1).trim() : '';
      const file = includePath(value);
      if (file === undefined) return `${section}.path ${value}`;
      includes.push(file);
    }
  }
  return includes;
}

/** An include's file as git reads the value (`~/` is the home folder); undefined where quoting or escapes could make it another. */
function includePath(value: string): string | undefined {
  const unquoted = /^"([^"]*)"\s*(?:[#;].*)?$/.exec(value)?.[1] ?? value.replace(/\s*[#;].*$/, '').trim();
  if (unquoted === '' || /["\\]/.test(unquoted)) return undefined;
  return unquoted.startsWith('~/') ? path.join(os.homedir(), unquoted.slice(2)) : unquoted;
}
