import * as assert from 'node:assert/strict';
import { backoffMs, retryDelayMs } from '../../../src/agent/transport/retryPolicy';

// The resend backoff grows: each attempt's ceiling is twice the last one's up to the cap, and each delay is
// drawn from the upper half of its ceiling (jitter, so that clients that failed together do not retry
// together).

describe('retry backoff', () => {
  const top = () => 1;
  const bottom = () => 0;

  it('doubles from the base with each attempt, up to the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((attempt) => backoffMs(attempt, 500, 8_000, top)),
      [500, 1_000, 2_000, 4_000, 8_000, 8_000],
    );
  });

  it('draws each delay from the upper half of its ceiling', () => {
    assert.deepEqual(
      [1, 2, 3].map((attempt) => backoffMs(attempt, 500, 8_000, bottom)),
      [250, 500, 1_000],
    );
    assert.equal(
      backoffMs(3, 500, 8_000, () => 0.5),
      1_500,
    );
  });

  it('takes attempt 0 or below as the first', () => {
    assert.equal(backoffMs(0, 500, 8_000, top), 500);
  });

  it('waits the backoff where the fault names no delay, else that delay and at most 250 ms more', () => {
    for (let i = 0; i < 20; i++) {
      const backoff = retryDelayMs(null, 4, 500, 8_000);
      assert.ok(backoff >= 2_000 && backoff <= 4_000, String(backoff));
      const named = retryDelayMs(3_000, 1, 500, 8_000);
      assert.ok(named >= 3_000 && named <= 3_250, String(named));
    }
    assert.equal(retryDelayMs(0, 1, 500, 8_000), 0, 'an immediate resend stays immediate');
  });
});
