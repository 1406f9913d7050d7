import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// A real git repository for a review's tests: made in a temporary folder, files written and committed by the
// test, with an identity of its own and none of the machine's config (no global hooks or signing).

export interface GitRepo {
  dir: string;
  write(file: string, text: string): void;
  git(...args: string[]): string;
  commit(message: string): string;
  remove(): void;
}

export function gitRepo(prefix = 'review'): GitRepo {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `loopwire-${prefix}-`)));
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  return {
    dir,
    git,
    write(file, text) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--no-verify', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
