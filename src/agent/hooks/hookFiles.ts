import * as fs from 'node:fs';
import * as path from 'node:path';

// Where hooks are read from (docs/customize.md, Hooks). The user's own: Claude Code's user settings
// (`~/.claude/settings.json`) and Loopwire's (`$XDG_CONFIG_HOME/loopwire/hooks.json`), run without asking: the
// user wrote them. A workspace's: Claude Code's project settings (`.claude/settings.json`, and the local
// `.claude/settings.local.json`) and VS Code's and Copilot's `.github/hooks/*.json`: a repository's, a
// stranger's input, run only after the user's yes to that file as it is now.

/** The user's hook files, in the order they are read. */
export function userHookFiles(home: string, env: NodeJS.ProcessEnv): string[] {
  const xdg = env['XDG_CONFIG_HOME'];
  const config = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return [path.join(home, '.claude', 'settings.json'), path.join(config, 'loopwire', 'hooks.json')];
}

/** The workspace's hook files that exist, in the order they are read (`.github/hooks` by name). */
export function workspaceHookFiles(root: string): string[] {
  const claude = ['settings.json', 'settings.local.json'].map((name) => path.join(root, '.claude', name));
  const github = path.join(root, '.github', 'hooks');
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(github)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    // No such folder: no hooks there.
  }
  return [...claude, ...names.map((name) => path.join(github, name))].filter((file) => fs.existsSync(file));
}

/** The most a hooks file may weigh: a settings file is a few KiB. */
export const HOOK_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The text of the hooks file `file`, links followed; throws (ENOENT where there is none) for what is not a
 * regular file or is too large. A repository's file is a stranger's, read before any yes: a FIFO there would
 * block a plain read for good (the whole process, as reads here are synchronous), and a link to /dev/zero
 * would never end. So it is opened without blocking and checked before a byte is read.
 */
export function readHookFileText(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new Error('not a regular file');
    if (stats.size > HOOK_FILE_MAX_BYTES) throw new Error(`larger than ${HOOK_FILE_MAX_BYTES / 1024} KiB`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}
