// A fresh copy of a task's project for one run, made a git repository with one commit, as a user's project
// would be (a model may well run `git diff`; AGENTS.md files are found from the repository root down).
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from './runCommand';

export interface WorkspaceCopy {
  /** The project's copy: the run's workspace. */
  dir: string;
  /** Where the run keeps anything else (its sessions), outside the workspace. */
  scratch: string;
  remove(): Promise<void>;
}

const GIT_IDENTITY = ['-c', 'user.name=Loopwire eval', '-c', 'user.email=eval@loopwire.invalid'];

/** Copies `fixture` into a new temporary folder and commits it there. */
export async function copyFixture(fixture: string, label: string): Promise<WorkspaceCopy> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), `loopwire-eval-${label}-`));
  const dir = path.join(root, 'workspace');
  const scratch = path.join(root, 'scratch');
  await fs.cp(fixture, dir, { recursive: true });
  await fs.mkdir(scratch);
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    [...GIT_IDENTITY, 'commit', '-q', '--no-gpg-sign', '-m', 'The task as it begins'],
  ]) {
    const result = await runCommand('git', args, { cwd: dir, timeoutMs: 30_000 });
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} in ${dir}: ${result.stderr.trim()}`);
  }
  return { dir, scratch, remove: () => fs.rm(root, { recursive: true, force: true }) };
}
