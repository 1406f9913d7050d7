import * as assert from 'node:assert/strict';
import {
  APPROVAL_MODES,
  type ApprovalRequest,
  approveAll,
  inProtectedFolder,
  isApprovalMode,
  policyFor,
  readOnly,
} from '../../../src/agent';

describe('approval modes', () => {
  const request: ApprovalRequest = { callId: 'c1', name: 'some_tool', effect: 'write', input: '{}' };

  it('are ask, all, read-only, plan and auto, and nothing else', () => {
    assert.deepEqual(APPROVAL_MODES, ['ask', 'all', 'read-only', 'plan', 'auto']);
    for (const mode of APPROVAL_MODES) assert.ok(isApprovalMode(mode));
    for (const other of ['none', 'ALL', '', undefined, 1]) assert.ok(!isApprovalMode(other));
  });

  it('map to their policies: all runs, read-only declines, ask asks each time', async () => {
    const asked: string[] = [];
    const ask = (r: ApprovalRequest) => {
      asked.push(r.callId);
      return Promise.resolve(r.callId === 'c1');
    };
    assert.equal(await approveAll.approve(request), true);
    assert.equal(await readOnly.approve(request), false);
    // Each policy says its mode, which decides the commands that only read (commandApproval.test.ts).
    for (const mode of APPROVAL_MODES) assert.equal(policyFor(mode, ask).mode?.(), mode);
    assert.equal(await policyFor('all', ask).approve(request), true);
    assert.equal(await policyFor('read-only', ask).approve(request), false);
    const policy = policyFor('ask', ask);
    assert.equal(await policy.approve(request), true);
    assert.equal(await policy.approve({ ...request, callId: 'c2' }), false);
    assert.deepEqual(asked, ['c1', 'c2']);
  });

  it('auto: runs what stays in the sandbox; asks to leave it, to edit a protected folder, or where nothing confines', async () => {
    const asked: string[] = [];
    const ask = (r: ApprovalRequest) => {
      asked.push(r.callId);
      return Promise.resolve(false);
    };
    const sandbox = () => ({ mode: 'workspace-write' as const, network: false });
    const policy = policyFor('auto', ask, undefined, sandbox);
    assert.equal(policy.mode?.(), 'auto');
    assert.deepEqual(policy.sandbox?.(), sandbox());
    assert.equal(await policy.approve({ ...request, paths: ['src/a.ts'] }), true);
    assert.equal(await policy.approve({ ...request, effect: 'task' }), true);
    for (const path of ['.git/hooks/pre-commit', 'pkg/.vscode/settings.json', '.github/hooks/a.json', '.codex/x'])
      assert.equal(await policy.approve({ ...request, callId: path, paths: ['src/a.ts', path] }), false, path);
    assert.equal(
      await policy.approve({ ...request, callId: 'escalated', escalation: { justification: 'why' } }),
      false,
    );
    // No sandbox in force: auto confines nothing, so it asks as ask does.
    assert.equal(
      await policyFor('auto', ask, undefined, () => undefined).approve({ ...request, callId: 'bare' }),
      false,
    );
    assert.equal(await policyFor('auto', ask).approve({ ...request, callId: 'none' }), false);
    assert.deepEqual(asked, [
      '.git/hooks/pre-commit',
      'pkg/.vscode/settings.json',
      '.github/hooks/a.json',
      '.codex/x',
      'escalated',
      'bare',
      'none',
    ]);
    assert.equal(inProtectedFolder('.github/workflows/ci.yml'), false);
    assert.equal(inProtectedFolder('docs/.gitignore'), false);
    // Names as the folding file systems read them: the case (macOS, Windows), a trailing dot, an NTFS stream.
    for (const folded of ['.VSCode/tasks.json', '.vscode./tasks.json', '.GitHub/Hooks/x.json', '.claude::$DATA/x'])
      assert.equal(inProtectedFolder(folded), true, folded);
    assert.equal(inProtectedFolder('src/vscode/app.ts'), false);
  });
});
