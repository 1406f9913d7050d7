import * as assert from 'node:assert/strict';
import { APPROVAL_MODES } from '../../../src/agent/approvals/approvals';
import { type ApprovalSources, resolveApproval, stricter } from '../../../src/agent/approvals/approvalSources';

// The mode where no one chose one (src/agent/approvals/approvalSources.ts's `fallback`): `auto` where this machine's OS
// sandbox works, `ask` where it does not. It stands only for "nothing set": every value of the user's comes
// first, a repository's may still make it stricter and never looser, and nonsense falls back to `ask`.

describe('the approval mode in force: the fallback where nothing is set', () => {
  const cases: [string, ApprovalSources, ReturnType<typeof resolveApproval>][] = [
    ['auto where the sandbox works', { fallback: 'auto' }, { mode: 'auto', source: 'default' }],
    ['ask where it does not', { fallback: 'ask' }, { mode: 'ask', source: 'default' }],
    ['no fallback: ask', {}, { mode: 'ask', source: 'default' }],
    ['a nonsense fallback: ask', { fallback: 'sandboxed' }, { mode: 'ask', source: 'default' }],
    ['the user setting over it', { user: 'ask', fallback: 'auto' }, { mode: 'ask', source: 'user' }],
    ['the composer over it', { chosen: 'all', fallback: 'auto' }, { mode: 'all', source: 'chosen' }],
    ['a stricter workspace ask', { workspace: 'ask', fallback: 'auto' }, { mode: 'ask', source: 'workspace' }],
    [
      "a workspace's all is not followed, and is reported",
      { workspace: 'all', fallback: 'auto' },
      { mode: 'auto', source: 'default', ignored: 'all' },
    ],
    [
      "a workspace's auto is looser than ask: not followed",
      { folder: 'auto', fallback: 'ask' },
      { mode: 'ask', source: 'default', ignored: 'auto' },
    ],
    [
      'a workspace auto beside the default auto',
      { workspace: 'auto', fallback: 'auto' },
      { mode: 'auto', source: 'default' },
    ],
  ];
  for (const [name, sources, expected] of cases) it(name, () => assert.deepEqual(resolveApproval(sources), expected));

  it('no workspace value makes any fallback looser', () => {
    const values = [undefined, 'nonsense', ...APPROVAL_MODES];
    for (const fallback of values)
      for (const workspace of values) {
        const own = resolveApproval({ fallback });
        const resolved = resolveApproval({ fallback, workspace });
        assert.ok(!stricter(own.mode, resolved.mode), JSON.stringify({ fallback, workspace }));
      }
  });
});
