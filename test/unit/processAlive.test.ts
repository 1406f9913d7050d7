import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { eventually } from './support/eventually';
import { alive } from './support/processAlive';

// The tests' one check that a process is gone (support/processAlive.ts): a running process is alive, an
// ended one is not, and neither is a zombie that nothing reaps.

describe('test support: alive(pid)', () => {
  it('is true for a running process and false once it has ended', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    assert.equal(await alive(pid), true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(await alive(pid), false);
  });

  it('is false for a zombie: ended, its parent never reaping it', async function () {
    // The shell becomes `sleep 30`, which never waits for the background `sleep 0.2`: that one stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(line.toString().trim());
      assert.ok(zombie > 0);
      await eventually(async () => !(await alive(zombie)), { message: 'the zombie counted as gone' });
      // It still exists as a process: only its state tells.
      assert.doesNotThrow(() => process.kill(zombie, 0));
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('is false for a pid no process has', async () => {
    assert.equal(await alive(2 ** 22 + 12_345), false);
  });
});
