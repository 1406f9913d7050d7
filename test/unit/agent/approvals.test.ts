import * as assert from 'node:assert/strict';
import {
  APPROVAL_MODES,
  type ApprovalRequest,
  approveAll,
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
});
