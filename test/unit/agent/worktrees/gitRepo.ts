import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Real repositories made for a test, and a fingerprint of a working tree (every file's bytes and mode, and
// the index), so that a test can say "byte-identical" of the user's checkout.

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });

export interface TestRepo {
  /** A temporary folder holding the repository (`repo`) and the state folder (`state`). */
  base: string;
  top: string;
  /** What XDG_STATE_HOME is for the test: the worktrees go under it. */
  env: NodeJS.ProcessEnv;
  write(rel: string, text: string): void;
  read(rel: string): string;
  cleanup(): void;
}

/** A repository with one commit of `files`. */
export function makeRepo(files: Record<string, string>): TestRepo {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-worktrees-')));
  const top = path.join(base, 'repo');
  fs.mkdirSync(top);
  git(top, 'init', '-q', '-b', 'main');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    fs.writeFileSync(path.join(top, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '-m', 'first');
  return {
    base,
    top,
    env: { ...process.env, XDG_STATE_HOME: path.join(base, 'state') },
    write,
    read: (rel) => fs.readFileSync(path.join(top, rel), 'utf8'),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** Every file under `top` but .git's, by path: its mode and sha256; and the index's sha256. */
export function fingerprint(top: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(top, full);
      if (rel === '.git') continue;
      if (entry.isDirectory()) walk(full);
      else {
        const stat = fs.lstatSync(full);
        const bytes = entry.isSymbolicLink() ? Buffer.from(fs.readlinkSync(full)) : fs.readFileSync(full);
        out[rel] = `${stat.mode.toString(8)} ${createHash('sha256').update(bytes).digest('hex')}`;
      }
    }
  };
  walk(top);
  const index = path.join(top, '.git', 'index');
  out['.git/index'] = createHash('sha256').update(fs.readFileSync(index)).digest('hex');
  out['.git/HEAD'] = fs.readFileSync(path.join(top, '.git', 'HEAD'), 'utf8');
  return out;
}
