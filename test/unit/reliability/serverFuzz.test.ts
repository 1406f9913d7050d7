import * as assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countText } from '../../../src/server/renderContext';
import { formatFuzz, runServerFuzz } from '../../reliability/serverFuzz';

// The short server fuzz of CI: 1,000 seeded hostile requests and frames (the long run:
// npx tsx test/reliability/serverFuzz.ts --cases 10000). Every answer in the API's shapes, the server up,
// and a healthy session beside them completing its turns.

describe('reliability: server input fuzz (1,000 cases)', function () {
  this.timeout(120_000);
  it('answers everything in the API error shapes, stays up, and leaves other connections alone', async () => {
    const report = await runServerFuzz(1_000, 7);
    console.log(formatFuzz(report).replace(/^/gm, '      '));
    assert.deepEqual(report.problems, []);
    assert.equal(report.healthyTurns, 10);
    assert.ok(
      (report.answers['http 400'] ?? 0) > 100 && (report.answers['ws error'] ?? 0) > 100,
      'most cases were refused',
    );
  });

  it('counts a long unbroken run in windows, close to the exact count (BPE on one run is quadratic)', () => {
    const run = Array.from(
      { length: 6000 },
      (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(i * 7919) % 64],
    ).join('');
    const text = `prefix words here ${run} and after`;
    const exact = countTokens(text);
    const counted = countText(text);
    assert.ok(Math.abs(counted - exact) / exact < 0.05, `${counted} against ${exact}`);
    assert.equal(countText('short text'), countTokens('short text'), 'ordinary text is counted exactly');
    assert.equal(countText('y'.repeat(1_000_000)), 250_000);
  });
});
