import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROMPT_START_PHASES, PromptStart } from '../../../src/agent/timing/promptStart';
import { renderPanelReport } from '../../bench/panel/panelReport';
import type { PanelResults } from '../../bench/panel/panelTypes';
import { phaseMedians, promptStarts, totalMedian } from '../../bench/panel/promptStartLog';

// A warm Send's host part as the panel bench reads it: the line the extension logs (promptStart.ts) parsed
// back phase by phase, a prompt that never reached the socket logging nothing, and the report's table from
// the run kept in test/bench/results.

describe('bench --panel: a prompt’s start, phase by phase', () => {
  it('reads back every phase of the logged line, in order, and their medians', () => {
    const lines: string[] = [];
    for (const spent of [1, 3, 2]) {
      const start = new PromptStart(0, (done) => lines.push(`2026-12-06 08:00:00.000 [info] ${done.describe()}`));
      for (const phase of PROMPT_START_PHASES) start.mark(phase);
      assert.ok(start.ended && start.totalMs >= 0);
      lines.push(`turn 1 over ws: overhead ${spent} ms, first event 3.0 ms`);
    }
    const unsent = new PromptStart();
    unsent.mark('echo');
    assert.equal(unsent.ended, false, 'a prompt stopped before its request logs no line');
    const samples = promptStarts(lines.join('\n'));
    assert.equal(samples.length, 3);
    for (const sample of samples) {
      assert.deepEqual(Object.keys(sample.phases), [...PROMPT_START_PHASES]);
      const sum = Object.values(sample.phases).reduce((a, b) => a + b, 0);
      assert.ok(
        Math.abs(sum - sample.total_ms) < 0.05,
        `the phases add up to the whole (${sum} vs ${sample.total_ms})`,
      );
    }
    assert.ok(Number.isFinite(totalMedian(samples)));
    assert.deepEqual(Object.keys(phaseMedians(samples)), [...PROMPT_START_PHASES]);
    assert.ok(Number.isNaN(totalMedian([])));
  });

  it('the kept run of 2026-12-06 has the figures, the goal and the table', () => {
    const kept = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../bench/results/panel-2026-12-06.json'), 'utf8'),
    ) as PanelResults;
    assert.equal(kept.panel.host_prompt_starts?.length, 4);
    assert.ok((kept.panel.host_prompt_start_p50_ms ?? Number.NaN) <= 5);
    assert.ok(kept.goals.some((goal) => goal.name.startsWith("a warm Send's host part")));
    const html = renderPanelReport(kept);
    assert.ok(html.includes('>host_prompt_start_p50_ms<'));
    for (const phase of [...PROMPT_START_PHASES, 'total']) assert.ok(html.includes(`<td>${phase}</td>`), phase);
  });
});
