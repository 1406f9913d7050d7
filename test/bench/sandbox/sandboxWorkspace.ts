import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The sandbox bench's workspace: a git repository of 200 small source files (what `rg` searches and `git
// status` walks), committed, with a few of them changed since so that `git status` has something to say,
// and the commands the bench times in it. Under the system's temporary folder, as a user's clone is not:
// the sandbox hides the host's /tmp and binds the workspace over it, the longest way round.

export const FILES = 200;

/** The commands timed plain and sandboxed: the four, each one line as the agent would run it. */
export const BENCH_COMMANDS = ['true', 'git status', 'node -e 0', `rg -c handler src`] as const;

function moduleText(index: number): string {
  const lines = [`// module ${index}`];
  for (let i = 0; i < 40; i++)
    lines.push(i % 10 === 0 ? `export function handler${index}_${i}() {` : `  const v${i} = ${i * index};`);
  return `${lines.join('\n')}\n`;
}

/** Writes the repository into `dir` (made if missing). */
export function writeSandboxWorkspace(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, 'src', `module_${i}.ts`), moduleText(i));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
      cwd: dir,
      stdio: 'pipe',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench workspace');
  for (let i = 0; i < 3; i++) fs.appendFileSync(path.join(dir, 'src', `module_${i}.ts`), '// changed\n');
  // The index refreshed once, here: a plain `git status` would otherwise write it on its first run, which a
  // sandboxed one (its .git read-only) cannot, and the two would not be doing the same work.
  git('status', '--short');
}
