import * as assert from 'node:assert/strict';
import type { ApprovalMode } from '../../../src/agent';
import { defaultApproval, machineSandbox, noSandboxText } from '../../../src/extension/trust/windowSandbox';
import { sandboxSupport } from '../../../src/sandbox';

// The window's sandbox (src/extension/trust/windowSandbox.ts): a policy gets one only where this machine can confine
// commands, and what it confines follows the mode read at each call; the default mode is Auto there and Ask
// elsewhere; where there is none, the user is told why and how to get one. LOOPWIRE_SANDBOX=off makes this
// machine one without, read at every call.

describe('the window’s sandbox: where it works, the default mode, what the user is told', () => {
  const given = process.env['LOOPWIRE_SANDBOX'];
  afterEach(() => {
    if (given === undefined) delete process.env['LOOPWIRE_SANDBOX'];
    else process.env['LOOPWIRE_SANDBOX'] = given;
  });

  it('without a sandbox: no policy gets one, the default is ask, and the reason is said', () => {
    process.env['LOOPWIRE_SANDBOX'] = 'off';
    assert.equal(
      machineSandbox(() => 'auto'),
      undefined,
    );
    assert.equal(defaultApproval(), 'ask');
    assert.equal(
      noSandboxText(),
      'Commands cannot run in a sandbox here, so Auto is not available. The sandbox is turned off by LOOPWIRE_SANDBOX=off.',
    );
  });

  it('says how to get one where there is a way', () => {
    const text = noSandboxText({
      available: false,
      reason: 'bubblewrap (bwrap) is not installed.',
      hint: 'install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`)',
    });
    assert.equal(
      text,
      'Commands cannot run in a sandbox here, so Auto is not available. bubblewrap (bwrap) is not installed. To get a sandbox: install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`).',
    );
    assert.equal(noSandboxText({ available: true, mechanism: 'bwrap', program: '/usr/bin/bwrap' }), undefined);
  });

  it('with a sandbox: Auto by default, and the policy each mode implies, read at each call', function () {
    delete process.env['LOOPWIRE_SANDBOX'];
    const support = sandboxSupport();
    if (!support.available) {
      console.log(`      (skipped: this machine has no sandbox: ${support.reason})`);
      this.skip();
    }
    assert.equal(defaultApproval(), 'auto');
    let mode: ApprovalMode = 'auto';
    const sandbox = machineSandbox(() => mode);
    assert.ok(sandbox, 'a policy gets the sandbox');
    assert.deepEqual(sandbox(), { mode: 'workspace-write', network: false });
    mode = 'plan';
    assert.deepEqual(sandbox(), { mode: 'read-only', network: false });
    mode = 'all';
    assert.equal(sandbox(), undefined, 'full access: nothing confined');
    process.env['LOOPWIRE_SANDBOX'] = 'off';
    mode = 'auto';
    assert.equal(sandbox(), undefined, 'turned off since: nothing claimed');
  });
});
