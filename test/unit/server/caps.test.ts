import * as assert from 'node:assert/strict';
import { ConnectionCache } from '../../../src/server/connectionCache';
import { extendContext } from '../../../src/server/contextState';
import { PromptCache } from '../../../src/server/promptCache';
import { StateBudget } from '../../../src/server/stateBudget';
import { WsClient, finalResponse, useServer } from './support/harness';

// The caps that keep a long-running server bounded: cache entries per socket, one memory budget, the
// prompt cache.

const state = (text: string) => extendContext(undefined, '', [{ role: 'user', content: text }]).state;

describe('caps: the pieces', () => {
  it('StateBudget evicts the least recently used entries, whoever holds them, once over its bytes', () => {
    const budget = new StateBudget(100);
    const evicted: string[] = [];
    budget.add('a', 40, () => evicted.push('a'));
    budget.add('b', 40, () => evicted.push('b'));
    budget.touch('a');
    budget.add('c', 40, () => evicted.push('c'));
    assert.deepEqual(evicted, ['b']);
    assert.equal(budget.bytes, 80);
    budget.add('huge', 500, () => evicted.push('huge'));
    assert.deepEqual(evicted, ['b', 'a', 'c'], 'everything else goes before the newest entry');
  });

  it('ConnectionCache keeps at most its capacity, oldest out first, and releases its budget when cleared', () => {
    const budget = new StateBudget(1e9);
    const cache = new ConnectionCache('w1', 2, budget);
    cache.set('r1', state('one'));
    cache.set('r2', state('two'));
    cache.get('r1');
    cache.set('r3', state('three'));
    assert.equal(cache.get('r2'), undefined);
    assert.ok(cache.get('r1') && cache.get('r3'));
    assert.ok(budget.bytes > 0);
    cache.clear();
    assert.equal(budget.bytes, 0);
  });

  it('a cache entry evicted by the shared budget is gone from its socket too', () => {
    const budget = new StateBudget(state('x').bytes * 1.5);
    const cache = new ConnectionCache('w1', 10, budget);
    cache.set('r1', state('x'));
    cache.set('r2', state('y'));
    assert.equal(cache.get('r1'), undefined);
    assert.equal(cache.size, 1);
  });

  it('PromptCache finds the longest cached prefix and forgets the oldest beyond capacity', () => {
    const cache = new PromptCache(3);
    cache.insert(['k1', 'k2'], [10, 20]);
    assert.equal(cache.longestPrefix(['k1', 'k2', 'k3'], [10, 20, 30]), 20);
    cache.insert(['k3', 'k4'], [30, 40]);
    assert.equal(cache.size, 3);
    assert.equal(cache.longestPrefix(['k1'], [10]), 0, 'k1 was the oldest');
  });
});

describe('caps: a socket keeps only its recent responses chainable', () => {
  const harness = useServer(() => ({ limits: { cachedResponsesPerConnection: 2 } }));

  it('past the per-socket cap, the oldest id is previous_response_not_found; recent ones still chain', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(finalResponse(await raw.turn({ model: 'm', store: false, input: `hello ${i}` })).id);
      const old = await raw.turn({ model: 'm', store: false, previous_response_id: ids[0], input: 'more' });
      assert.equal((old[0]?.error as { code?: string }).code, 'previous_response_not_found');
      const recent = await raw.turn({ model: 'm', store: false, previous_response_id: ids[2], input: 'more' });
      assert.equal(finalResponse(recent).status, 'completed');
      assert.ok(harness.server.stats().cachedResponses <= 2);
    } finally {
      raw.close();
    }
  });

  it('a closed socket releases its cache', async () => {
    const raw = await WsClient.open(harness.url);
    await raw.turn({ model: 'm', store: false, input: 'hello' });
    assert.equal(harness.server.stats().cachedResponses, 1);
    raw.close();
    await raw.closed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual([harness.server.stats().cachedResponses, harness.server.stats().connections], [0, 0]);
  });
});
