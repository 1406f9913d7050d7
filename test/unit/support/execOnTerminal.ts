import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { shellWord } from '../../../src/mcp/mcpConsent';
import { type ProcessResult, repoRoot } from './runProcess';

// The built `loopwire exec` on a real pseudo-terminal (util-linux's `script`), for the tests of what a user
// types while a task runs: each cue is answered once, in order, when the output so far first matches it.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

/** What the output must show, and what the test then does (keys to type, or anything else). */
export interface TerminalCue {
  when: RegExp;
  then: string | (() => void);
}

/** Runs `loopwire exec ARGS` in `cwd` on a terminal; its output (stdout and stderr, as the terminal shows it). */
export function execOnTerminal(
  args: string[],
  cues: readonly TerminalCue[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProcessResult> {
  const withoutColor: NodeJS.ProcessEnv = { ...env, NO_COLOR: '1' };
  delete withoutColor.FORCE_COLOR;
  const line = [process.execPath, bin, 'exec', ...args].map(shellWord).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd, env: withoutColor });
    let stdout = '';
    let next = 0;
    const guard = setTimeout(() => child.kill(), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      for (let cue = cues[next]; cue !== undefined && cue.when.test(stdout); cue = cues[++next]) {
        if (typeof cue.then === 'string') child.stdin.write(cue.then);
        else cue.then();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr: '' });
    });
  });
}
