import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startTaskProcess } from '../../../src/workspace/shared/commandProcess';
import { commandTask } from '../../../src/workspace/shared/diskFolder';

// A command session's stdin is a socket (Node's pipes): Debian's bash then reads ~/.bashrc as if sshd had
// started it, unless it knows it is not the first shell. Started by a service or a launcher (no SHLVL), every
// exec_command paid the user's rc (pyenv, nvm: seconds). taskSpawn.ts gives the shell a level.

describe('command sessions: the user’s ~/.bashrc is not read by a command’s bash', () => {
  const saved = { SHLVL: process.env['SHLVL'], HOME: process.env['HOME'] };
  let home: string;
  before(function () {
    if (!existsSync('/bin/bash')) this.skip();
    home = mkdtempSync(path.join(tmpdir(), 'loopwire-home-'));
    writeFileSync(path.join(home, '.bashrc'), 'echo RC-SOURCED\n');
  });
  after(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  for (const level of [undefined, '0']) {
    it(`with SHLVL ${level ?? 'unset'}`, async () => {
      if (level === undefined) delete process.env['SHLVL'];
      else process.env['SHLVL'] = level;
      process.env['HOME'] = home;
      const line = 'echo ran';
      const task = {
        ...commandTask(line, home),
        run: { kind: 'shell' as const, line, shell: '/bin/bash', shellArgs: ['-c'] },
      };
      const session = startTaskProcess(task, 5000);
      await session.ended;
      const { output } = await session.read(0);
      assert.equal(output, 'ran\n');
    });
  }
});
