// A task's check script on a workspace: `node check.js` run there; exit 0 is the verdict "done".
import type { EvalTask } from './evalTypes';
import { runCommand } from './runCommand';

export interface CheckVerdict {
  passed: boolean;
  /** Its last line on stderr: why it failed. */
  note: string;
  ms: number;
}

const CHECK_TIMEOUT_MS = 120_000;

/** Runs `task`'s check in `dir`. */
export async function runCheck(task: EvalTask, dir: string): Promise<CheckVerdict> {
  const result = await runCommand(process.execPath, [task.check], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    timeoutMs: CHECK_TIMEOUT_MS,
  });
  const lines = result.stderr.trim().split('\n');
  const note = result.timedOut ? `the check ran past ${CHECK_TIMEOUT_MS / 1000} s` : (lines.at(-1) ?? '');
  return { passed: result.code === 0, note: note.replace(/^check: /, ''), ms: result.ms };
}
