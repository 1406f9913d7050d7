import * as assert from 'node:assert/strict';
import { formatLoad, runLoad } from '../../reliability/load';

// The short load run of CI: 40 chained WebSocket sessions and 4 full-resend HTTP sessions, 10 turns each,
// all at once against one server. Every turn must be answered; figures are printed, memory is held to a
// generous bound only. The long run: node --expose-gc --import tsx test/reliability/load.ts (200 × 30 + 20 HTTP).

describe('reliability: load (40 WebSocket + 4 HTTP sessions × 10 turns)', function () {
  this.timeout(120_000);
  it('answers every turn of every session, with memory bounded', async () => {
    const report = await runLoad({ sessions: 40, turns: 10, httpSessions: 4 });
    console.log(formatLoad(report).replace(/^/gm, '      '));
    assert.deepEqual(report.errors, []);
    assert.equal(report.turnsAnswered, report.turnsExpected);
    assert.ok(report.rssPeakMb < 1024, `peak RSS ${report.rssPeakMb} MB`);
  });
});
