import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { userShell } from '../../../src/workspace/shared/userShell';
import { toolBench } from '../tools/toolHarness';

// Which shell runs the agent's commands: the one chosen (VS Code's default terminal shell), else $SHELL,
// else the account's login shell, as VS Code finds it; only POSIX shells, never one that refuses commands. A process
// started without $SHELL (CI ran the extension host so) must still get the user's bash, not `sh`.

const login = (() => {
  const shell = os.userInfo().shell;
  return shell && /\/(bash|zsh|sh|dash|ksh)$/.test(shell) ? shell : '/bin/sh';
})();

describe('userShell', () => {
  before(function () {
    if (process.platform === 'win32') this.skip();
  });

  it('takes the chosen shell first, then $SHELL, then the login shell', () => {
    assert.deepEqual(userShell('/usr/bin/zsh', { SHELL: '/bin/bash' }), { shell: '/usr/bin/zsh', shellArgs: ['-c'] });
    assert.equal(userShell(undefined, { SHELL: '/bin/bash' }).shell, '/bin/bash');
    assert.equal(userShell('', { SHELL: '' }).shell, login);
    assert.equal(userShell(undefined, {}).shell, login);
  });

  it('passes over shells that refuse every command, and those of another language than the model writes', () => {
    assert.equal(userShell('/usr/sbin/nologin', { SHELL: '/bin/false' }).shell, login);
    assert.equal(userShell('/bin/false', { SHELL: '/bin/bash' }).shell, '/bin/bash');
    assert.equal(userShell('/usr/bin/pwsh', { SHELL: '/usr/bin/fish' }).shell, login);
    assert.equal(userShell('/usr/bin/fish', { SHELL: '/usr/bin/zsh' }).shell, '/usr/bin/zsh');
    assert.equal(userShell('/opt/homebrew/bin/nu', { SHELL: '/bin/dash' }).shell, '/bin/dash');
  });

  it('runs exec_command in the login shell when the process has no $SHELL', async function () {
    const saved = process.env['SHELL'];
    delete process.env['SHELL'];
    try {
      const { run } = await toolBench({});
      // $0 of `SHELL -c` is the shell itself.
      const result = await run('exec_command', { cmd: 'echo "$0"' });
      assert.equal(result.ok, true, result.output);
      assert.match(result.output, new RegExp(`--- output ---\\n${login.replace(/[/.]/g, '\\$&')}$`), result.output);
    } finally {
      if (saved === undefined) delete process.env['SHELL'];
      else process.env['SHELL'] = saved;
    }
  });
});
