// A task's check script on a workspace: `node check.js` run there; exit 0 is the verdict "done".
import type { EvalTask } from './evalTypes';
import { runCommand } from './runCommand';

export interface CheckVerdict {
  passed: boolean;
  /** Why it failed: what it said on stderr from its last `check: ` line on, on one line. */
  note: string;
  ms: number;
}

const CHECK_TIMEOUT_MS = 120_000;

/** Runs `task`'s check in `dir`. */
export async function runCheck(task: EvalTask, dir: string): Promise<CheckVerdict> {
  const result = await runCommand(process.execPath, [task.check], {
    cwd: dir,
    timeoutMs: CHECK_TIMEOUT_MS,
  });
  const note = result.timedOut ? `the check ran past ${CHECK_TIMEOUT_MS / 1000} s` : reasonOf(result.stderr);
  return { passed: result.code === 0, note, ms: result.ms };
}

/** From the last `check: ` line of `stderr` on (else its last line), on one line, cut at 400 characters. */
function reasonOf(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const from = lines.findLastIndex((line) => line.startsWith('check: '));
  const reason = lines
    .slice(Math.max(0, from === -1 ? lines.length - 1 : from))
    .join(' ⏎ ')
    .replace(/^check: /, '');
  return reason.length > 400 ? `${reason.slice(0, 399)}…` : reason;
}
