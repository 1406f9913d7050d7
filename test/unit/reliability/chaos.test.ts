import * as assert from 'node:assert/strict';
import { type ChaosOutcome, chaosRun, summarize } from '../../reliability/chaosRun';

// The short chaos run of CI: 20 seeded runs of a task of non-idempotent edits against the real server with
// faults before most requests. The long run is `npm run chaos` (1,000 seeds). A failing seed replays with
// `npm run chaos -- --from SEED --runs 1`.

describe('reliability: seeded chaos (20 runs)', function () {
  this.timeout(180_000);
  it('every task completes, every file holds each edit exactly once, no tool runs twice', async () => {
    const outcomes: ChaosOutcome[] = [];
    for (let seed = 1; seed <= 20; seed++) outcomes.push(await chaosRun(seed));
    const report = summarize(outcomes);
    console.log(report.replace(/^/gm, '      '));
    const injected = outcomes.reduce((n, o) => n + Object.values(o.faults).reduce((a, b) => a + (b ?? 0), 0), 0);
    assert.ok(injected >= 40, `only ${injected} faults were injected`);
    assert.deepEqual(
      outcomes.flatMap((o) => o.losses.map((loss) => `seed ${o.seed}: ${loss}`)),
      [],
      report,
    );
    assert.equal(outcomes.filter((o) => o.completed).length, 20);
  });
});
