import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderPanelReport } from '../../bench/panel/panelReport';
import type { PanelResults } from '../../bench/panel/panelTypes';

// The panel bench's report, from the run kept in test/bench/results: the goals, the contract's figures,
// one frame-time series per run with its points, and an empty run drawn without failing.

const kept = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../../bench/results/panel-2026-12-04.json'), 'utf8'),
) as PanelResults;

describe('bench --panel: the report', () => {
  it('has the goals, the figures and a frame-time series per run', () => {
    const html = renderPanelReport(kept);
    for (const goal of kept.goals) assert.ok(html.includes(goal.met ? '✓ met' : '✗ missed'));
    for (const field of [
      'host_overhead_p50_ms',
      'long_tasks_over_50ms',
      'frame_p95_ms',
      'send_to_first_token_ms',
      'page_heap_mb',
    ])
      assert.ok(html.includes(`>${field}<`), field);
    const frames = kept.panel.frame_samples.reduce((n, run) => n + run.length, 0);
    assert.equal((html.match(/<title>run \d: [\d.]+ ms at /g) ?? []).length, frames, 'a point per frame');
    assert.equal(kept.panel.tool_calls, 50);
  });

  it('draws a run with no frames, and escapes what it prints', () => {
    const empty: PanelResults = {
      ...kept,
      machine: { ...kept.machine, cpu_model: '<script>alert(1)</script>' },
      panel: { ...kept.panel, runs: [], frame_samples: [[]], long_task_samples: [[]] },
    };
    const html = renderPanelReport(empty);
    assert.match(html, /No frames were recorded/);
    assert.ok(!html.includes('<script>alert'), 'escaped');
  });
});
