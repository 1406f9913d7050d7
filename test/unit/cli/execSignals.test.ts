import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { EXIT_SIGNALS } from '../../../src/cli/exec/exitSignals';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` killed from outside while a command it started runs on in the background: SIGTERM (a `kill`,
// a supervisor), SIGINT (Ctrl+C) or SIGHUP (the terminal closed). Node's default would end exec at once and
// leave the command's process group running; exec stops the task instead, and every group with it.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });

/** The processes of group `pgid` still running (a zombie waiting for a reaper is not). */
async function groupMembers(pgid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) found.push(Number(entry));
  }
  return found;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const readPid = (file: string) =>
  fs.readFile(file, 'utf8').then(
    (text) => (/^\d+\n$/.test(text) ? Number(text) : undefined),
    () => undefined,
  );

describe('cli: loopwire exec killed by a signal leaves no command running', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({ 'README.md': '# signals\n' }, { prefix: 'exec-signals' });

  for (const signal of EXIT_SIGNALS)
    it(`${signal}: sleep 30 started with yield_time_ms 500 is gone, its whole group, and exec exits 1`, async () => {
      const dir = temp.path(`workspace-${signal}`);
      await fs.mkdir(dir, { recursive: true });
      const scenario = temp.path(`signals-${signal}.json`);
      // The first call comes back at once with a session; the second waits on it for a minute, so exec is
      // mid-task, a tool running, when the signal comes.
      const steps = [
        {
          output: [
            call('exec_command', {
              cmd: 'echo $$ > shell.pid; sleep 30 & echo $! > sleep.pid; wait',
              yield_time_ms: 500,
            }),
          ],
        },
        { output: [call('write_stdin', { session_id: 1, chars: '', yield_time_ms: 60_000 })] },
        { output: [{ type: 'message', text: 'Waited.' }] },
      ];
      await fs.writeFile(scenario, JSON.stringify({ scenarios: [{ name: 'signals', match: '^serve', steps }] }));
      const args = ['exec', '--workspace', dir, '--sessions-dir', temp.path('sessions'), '--approve', 'all'];
      const child = spawn(process.execPath, [bin, ...args, '--scenario', scenario, 'serve it'], { cwd: repoRoot });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdout.resume();
      child.stdin.end();
      const exited = new Promise<{ code: number | null; by: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, by) => resolve({ code, by })),
      );
      const shell = await until('the shell', () => readPid(path.join(dir, 'shell.pid')));
      const sleep = await until('the sleep', () => readPid(path.join(dir, 'sleep.pid')));
      await until('the session going on in the background', () =>
        Promise.resolve(/runs on in the background/.test(stderr) ? true : undefined),
      );
      assert.deepEqual((await groupMembers(shell)).sort(), [shell, sleep].sort(), 'both run, in the group');
      const killedAt = Date.now();
      child.kill(signal);
      const { code, by } = await exited;
      assert.equal(by, null, `exec ended by the signal itself, not by its own way out:\n${stderr}`);
      assert.equal(code, 1, stderr);
      assert.ok(Date.now() - killedAt < 10_000, 'exec did not wait for the minute-long poll');
      assert.deepEqual(await groupMembers(shell), [], `something of the command outlived exec:\n${stderr}`);
      assert.match(stderr, /\(session 1 ended, stopped: echo \$\$/);
    });
});
