import * as assert from 'node:assert/strict';
import { formatRotation, runRotation } from '../../reliability/rotation';

// The short rotation run of CI: 60 tool calls with sockets retired every 10 ms (the long run:
// npx tsx test/reliability/rotation.ts, 250 calls, 100+ rotations).

describe('reliability: socket rotation endurance (60 calls, sockets retired every 10 ms)', function () {
  this.timeout(60_000);
  it('loses no turn, runs every call once, and resends in full only on a new socket', async () => {
    const report = await runRotation(60, 10);
    console.log(formatRotation(report).replace(/^/gm, '      '));
    assert.equal(report.completed, true);
    assert.equal(report.toolCalls, 60);
    assert.deepEqual(report.ranTwice, []);
    assert.ok(report.rotations >= 15, `only ${report.rotations} rotations`);
    assert.ok(report.fullResends <= report.sockets, `${report.fullResends} full requests on ${report.sockets} sockets`);
    assert.equal(report.fullResends + report.chainedTurns, report.turns);
  });
});
