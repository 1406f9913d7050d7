import * as assert from 'node:assert/strict';
import { GAP_PHASES, type GapPhases } from '../../../src/agent/timing/turnGap';
import type { RunRow } from '../../bench/loop/benchTypes';
import { firstGapGoal, gapFigures, nearestRank, rowGapLine } from '../../bench/loop/gapStats';
import { SAMPLE_RESULTS } from '../../bench/loop/sampleResults';

// The gap's figures the bench prints and writes (issue 51): the median, the p90 that shows a tail the median
// hides, and each task's first gap, with its split into the loop's phases.

const split = (tools: number): GapPhases =>
  Object.fromEntries(GAP_PHASES.map((phase) => [phase, phase === 'tools' ? tools : 0.1])) as GapPhases;

describe('bench: the tool-to-request gap', () => {
  it('takes the p90 at the nearest rank, a gap that happened', () => {
    const tenths = Array.from({ length: 10 }, (_, i) => i + 1);
    assert.equal(nearestRank(tenths, 0.9), 9);
    assert.equal(nearestRank(tenths, 0.5), 5);
    assert.equal(nearestRank([7], 0.9), 7);
    assert.equal(nearestRank([], 0.9), 0);
  });

  it('keeps a cold first gap out of the median but in the p90 and gap_first_ms', () => {
    // Three tasks of ten gaps: each task's first is cold (20–30 ms), the rest ~1 ms.
    const task = (first: number, tools: number) => ({
      gapsMs: [first, 1.2, 1.1, 1, 0.9, 1, 1.1, 1, 0.9, 1],
      firstPhasesMs: split(tools),
    });
    const figures = gapFigures([task(20, 18), task(30, 28), task(25, 23)]);
    assert.equal(figures.gap_p50_ms, 1);
    assert.equal(figures.gap_first_ms, 25);
    // 30 gaps: the 27th smallest is still a warm one; the three cold ones are the 28th to the 30th.
    assert.equal(figures.gap_p90_ms, 1.2);
    // Tasks of five gaps: one in five is cold, and the p90 is a cold one where the median is not.
    const short = [task(20, 18), task(30, 28), task(25, 23)].map((t) => ({ ...t, gapsMs: t.gapsMs.slice(0, 5) }));
    assert.equal(gapFigures(short).gap_p90_ms, 25);
    assert.equal(gapFigures(short).gap_p50_ms, 1.1);
    assert.equal(figures.gap_first_phases_ms.tools, 23);
    assert.equal(figures.gap_first_phases_ms.keep, 0.1);
  });

  it('skips tasks without a gap and a split it was not given', () => {
    const figures = gapFigures([
      { gapsMs: [], firstPhasesMs: undefined },
      { gapsMs: [4, 2], firstPhasesMs: undefined },
    ]);
    assert.equal(figures.gap_first_ms, 4);
    assert.equal(figures.gap_p50_ms, 3);
    assert.equal(figures.gap_first_phases_ms.tools, 0);
  });

  it('prints each cell and judges the worst one against 10 ms', () => {
    const rows = SAMPLE_RESULTS.runs.filter((r) => r.mode === 'ws-chained');
    assert.ok(rows.length > 0);
    const row: RunRow = { ...(rows[0] as RunRow), gap_p50_ms: 0.7, gap_p90_ms: 1.25, gap_first_ms: 2.5 };
    const line = rowGapLine({ ...row, gap_first_phases_ms: split(1.5) });
    assert.match(line, /gap p50 0\.70 ms, p90 1\.25 ms, first 2\.50 ms \(response 0\.10, keep 0\.10, tools 1\.50,/);
    assert.doesNotMatch(rowGapLine(row), /\(/);
    assert.equal(firstGapGoal([row]).met, true);
    assert.equal(firstGapGoal([row, { ...row, gap_first_ms: 12 }]).met, false);
    assert.equal(firstGapGoal([row, { ...row, gap_p90_ms: 10.5 }]).met, false);
  });
});
