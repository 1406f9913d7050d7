import * as assert from 'node:assert/strict';
import { ApprovalCache, type ApprovalSources } from '../../../src/agent/approvals/approvalSources';

// The approval mode in force is read at every call of a task: ApprovalCache resolves it once and again only
// after its owner says a source changed (approvalChoice.ts: a settings change, the composer's pick, an allow,
// the folders, the trust), so a change applies to the very next read.

describe('ApprovalCache', () => {
  const counted = (sources: ApprovalSources) => {
    const read = { count: 0, sources };
    const cache = new ApprovalCache(() => {
      read.count++;
      return read.sources;
    });
    return { read, cache };
  };

  it('reads the sources once for any number of reads', () => {
    const { read, cache } = counted({ user: 'all' });
    for (let i = 0; i < 100; i++) assert.deepEqual(cache.get(), { mode: 'all', source: 'user' });
    assert.equal(read.count, 1);
  });

  it('reads them again at the first read after an invalidation, and the change applies to it', () => {
    const { read, cache } = counted({ user: 'all' });
    assert.equal(cache.get().mode, 'all');
    read.sources = { user: 'all', chosen: 'read-only' };
    // Not yet told: the value resolved stands (its owner invalidates on every change it can see).
    assert.equal(cache.get().mode, 'all');
    cache.invalidate();
    assert.deepEqual(cache.get(), { mode: 'read-only', source: 'chosen' });
    assert.equal(read.count, 2);
  });

  it('keeps a stricter workspace value and the ignored looser one across reads until invalidated', () => {
    const { read, cache } = counted({ user: 'ask', workspace: 'all' });
    assert.deepEqual(cache.get(), { mode: 'ask', source: 'user', ignored: 'all' });
    read.sources = { user: 'ask', workspace: 'plan' };
    cache.invalidate();
    assert.deepEqual(cache.get(), { mode: 'plan', source: 'workspace' });
    cache.invalidate();
    cache.invalidate();
    cache.get();
    cache.get();
    assert.equal(read.count, 3);
  });
});
