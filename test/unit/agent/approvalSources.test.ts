import * as assert from 'node:assert/strict';
import { APPROVAL_MODES } from '../../../src/agent/approvals/approvals';
import {
  type ApprovalSources,
  type ResolvedApproval,
  resolveApproval,
  stricter,
} from '../../../src/agent/approvals/approvalSources';

// The approval mode in force, from the user's values and a repository's (src/agent/approvals/approvalSources.ts): a
// workspace or folder value may make it stricter, never looser, unless the user allowed that very value.

type Row = [name: string, sources: ApprovalSources, expected: ResolvedApproval];

const TABLE: Row[] = [
  // Nothing set: ask.
  ['nothing set', {}, { mode: 'ask', source: 'default' }],
  [
    'nonsense everywhere',
    { chosen: 'yes', user: 1, workspace: 'ALL', folder: null },
    { mode: 'ask', source: 'default' },
  ],
  // The user's own values.
  ['the user setting', { user: 'all' }, { mode: 'all', source: 'user' }],
  ['the composer over the user setting', { chosen: 'read-only', user: 'all' }, { mode: 'read-only', source: 'chosen' }],
  ['the composer looser than the user setting', { chosen: 'all', user: 'ask' }, { mode: 'all', source: 'chosen' }],
  ['a nonsense choice: the user setting', { chosen: 'sometimes', user: 'plan' }, { mode: 'plan', source: 'user' }],
  // The hole: a repository's `all` is not followed, and is reported.
  ['workspace all, nothing of the user', { workspace: 'all' }, { mode: 'ask', source: 'default', ignored: 'all' }],
  ['folder all, nothing of the user', { folder: 'all' }, { mode: 'ask', source: 'default', ignored: 'all' }],
  ['workspace all over user ask', { user: 'ask', workspace: 'all' }, { mode: 'ask', source: 'user', ignored: 'all' }],
  [
    'workspace all over a composer read-only',
    { chosen: 'read-only', workspace: 'all' },
    { mode: 'read-only', source: 'chosen', ignored: 'all' },
  ],
  [
    'workspace ask over user plan',
    { user: 'plan', workspace: 'ask' },
    { mode: 'plan', source: 'user', ignored: 'ask' },
  ],
  [
    'workspace all and folder all over chosen ask',
    { chosen: 'ask', workspace: 'all', folder: 'all' },
    { mode: 'ask', source: 'chosen', ignored: 'all' },
  ],
  // Stricter: followed, over every value of the user's.
  [
    'workspace read-only over user all',
    { user: 'all', workspace: 'read-only' },
    { mode: 'read-only', source: 'workspace' },
  ],
  ['workspace plan over default ask', { workspace: 'plan' }, { mode: 'plan', source: 'workspace' }],
  ['workspace ask over user all', { user: 'all', workspace: 'ask' }, { mode: 'ask', source: 'workspace' }],
  ['workspace ask over composer all', { chosen: 'all', workspace: 'ask' }, { mode: 'ask', source: 'workspace' }],
  [
    'folder read-only over composer ask',
    { chosen: 'ask', folder: 'read-only' },
    { mode: 'read-only', source: 'workspace' },
  ],
  // The workspace and a folder disagree: the stricter of the two counts.
  [
    'workspace all, folder read-only',
    { user: 'ask', workspace: 'all', folder: 'read-only' },
    { mode: 'read-only', source: 'workspace' },
  ],
  ['workspace ask, folder all', { user: 'all', workspace: 'ask', folder: 'all' }, { mode: 'ask', source: 'workspace' }],
  // As strict, or the same: the user's stands, nothing reported.
  [
    'workspace plan beside user read-only',
    { user: 'read-only', workspace: 'plan' },
    { mode: 'read-only', source: 'user' },
  ],
  [
    'workspace read-only beside chosen plan',
    { chosen: 'plan', workspace: 'read-only' },
    { mode: 'plan', source: 'chosen' },
  ],
  ['workspace all beside user all', { user: 'all', workspace: 'all' }, { mode: 'all', source: 'user' }],
  ['workspace ask beside default ask', { workspace: 'ask' }, { mode: 'ask', source: 'default' }],
  ['a nonsense workspace value', { user: 'ask', workspace: 'everything' }, { mode: 'ask', source: 'user' }],
  // Allowed by the user for this workspace, keyed on the value.
  ['workspace all, allowed', { workspace: 'all', allowed: 'all' }, { mode: 'all', source: 'workspace' }],
  [
    'workspace all, allowed, over user ask',
    { user: 'ask', workspace: 'all', allowed: 'all' },
    { mode: 'all', source: 'workspace' },
  ],
  [
    'workspace all, allowed, but a composer choice since',
    { chosen: 'ask', workspace: 'all', allowed: 'all' },
    { mode: 'ask', source: 'chosen' },
  ],
  [
    'workspace ask, allowed, over user plan',
    { user: 'plan', workspace: 'ask', allowed: 'ask' },
    { mode: 'ask', source: 'workspace' },
  ],
  [
    'a different value allowed before: not this one',
    { user: 'ask', workspace: 'all', allowed: 'ask' },
    { mode: 'ask', source: 'user', ignored: 'all' },
  ],
  [
    'allowed all, the folder now stricter',
    { user: 'ask', workspace: 'all', folder: 'read-only', allowed: 'all' },
    { mode: 'read-only', source: 'workspace' },
  ],
  ['an allowed value no longer set', { user: 'read-only', allowed: 'all' }, { mode: 'read-only', source: 'user' }],
];

describe('the approval mode in force (approvalSources)', () => {
  for (const [name, sources, expected] of TABLE) it(name, () => assert.deepEqual(resolveApproval(sources), expected));

  it('never ends looser than the user alone unless the user allowed it', () => {
    const values = [undefined, 'nonsense', ...APPROVAL_MODES];
    for (const chosen of values)
      for (const user of values)
        for (const workspace of values)
          for (const folder of values) {
            const own = resolveApproval({ chosen, user });
            const resolved = resolveApproval({ chosen, user, workspace, folder });
            assert.ok(!stricter(own.mode, resolved.mode), JSON.stringify({ chosen, user, workspace, folder }));
          }
  });

  it('ranks the modes: all < ask < read-only = plan', () => {
    assert.ok(stricter('ask', 'all'));
    assert.ok(stricter('read-only', 'ask') && stricter('plan', 'ask') && stricter('plan', 'all'));
    assert.ok(!stricter('plan', 'read-only') && !stricter('read-only', 'plan'));
    assert.ok(!stricter('all', 'ask'));
  });
});
