import * as assert from 'node:assert/strict';
import {
  type InlineResults,
  type InlineSample,
  hostTiming,
  inlineGoals,
  inlineLines,
  inlineRow,
} from '../../bench/inline/inlineFigures';

// The inline bench's figures and the shape others read (issue 47, item 2: `{ "inline": [ { "kind",
// "cold_first_line_ms", "warm_first_line_p50_ms", "warm_first_line_p90_ms", "lens_after_end_p50_ms",
// "lens_after_keep_p50_ms" } ] }`), from fixed samples.

const LOG_LINE =
  '2026-12-07 05:06:31.826 [info] inline src/cart.js: completed (The discount is now that percent of the amount.); first line painted 858.6 ms after Enter: agent 551.9 ms, first edit delta 75.7 ms, first changed line written 49.0 ms, painted 182.0 ms';

function sample(over: Partial<InlineSample>): InlineSample {
  return {
    kind: 'ctrl-i',
    window: 0,
    index: 2,
    phase: 'warm',
    first_line_ms: 100,
    first_line_whole_ms: 120,
    edit_end_ms: 200,
    lens_after_end_ms: 300,
    lens_after_keep_ms: 280,
    lens_after_undo_ms: 290,
    host: null,
    ...over,
  };
}

const samples: InlineSample[] = [
  sample({ phase: 'cold', index: 0, first_line_ms: 400, lens_after_end_ms: 5000, lens_after_keep_ms: 270 }),
  sample({ phase: 'first-of-kind', kind: 'light-bulb', index: 1, first_line_ms: 999, lens_after_undo_ms: null }),
  ...[110, 150, 130, 170].map((first, i) =>
    sample({ first_line_ms: first, lens_after_end_ms: 300 + i, host: hostTiming(LOG_LINE) }),
  ),
  ...[90, 80].map((first) =>
    sample({
      kind: 'light-bulb',
      first_line_ms: first,
      lens_after_end_ms: 60,
      lens_after_keep_ms: 70,
      lens_after_undo_ms: null,
    }),
  ),
  sample({
    kind: 'light-bulb',
    window: 1,
    index: 0,
    phase: 'cold',
    first_line_ms: 200,
    lens_after_end_ms: 90,
    lens_after_keep_ms: 95,
    lens_after_undo_ms: null,
  }),
];

describe('inline bench figures', () => {
  it('reads the extension’s log line, and nothing from a line without its figure', () => {
    assert.deepEqual(hostTiming(LOG_LINE), {
      total_ms: 858.6,
      agent_ms: 551.9,
      first_delta_ms: 75.7,
      written_ms: 49,
      painted_ms: 182,
    });
    assert.equal(hostTiming('inline src/cart.js: cancelled'), null);
  });

  it('a row: the cold runs’ median as cold, the warm runs’ median and p90, first-of-kind runs in neither', () => {
    const row = inlineRow('ctrl-i', samples);
    assert.equal(row.cold_first_line_ms, 400);
    assert.equal(row.warm_first_line_p50_ms, 140);
    assert.equal(row.warm_first_line_p90_ms, 170);
    assert.equal(row.lens_after_end_p50_ms, 301.5);
    assert.equal(row.cold_lens_after_end_ms, 5000);
    assert.equal(row.lens_after_keep_p50_ms, 280);
    assert.equal(row.lens_after_undo_p50_ms, 290);
    assert.equal(row.warm_host_first_line_p50_ms, 858.6);
    assert.deepEqual(row.warm_host_parts_p50_ms, {
      agent_ms: 551.9,
      first_delta_ms: 75.7,
      written_ms: 49,
      painted_ms: 182,
    });
    assert.equal(row.warm_runs, 4);
    assert.equal(row.cold_runs, 1);
    assert.equal(row.warm_first_line_whole_p50_ms, 120);
    const bulb = inlineRow('light-bulb', samples);
    assert.equal(bulb.cold_first_line_ms, 200);
    assert.equal(bulb.warm_first_line_p50_ms, 85);
    assert.equal(bulb.lens_after_undo_p50_ms, null);
    assert.equal(bulb.warm_host_first_line_p50_ms, null);
    assert.equal(bulb.warm_runs, 2);
    // Two windows' cold runs: their median.
    const twice = inlineRow('light-bulb', [
      ...samples,
      sample({ kind: 'light-bulb', window: 2, phase: 'cold', first_line_ms: 300 }),
    ]);
    assert.equal(twice.cold_first_line_ms, 250);
    assert.equal(twice.cold_runs, 2);
  });

  it('the JSON carries the contract’s fields, a figure with no runs as null', () => {
    const rows = [inlineRow('ctrl-i', samples), inlineRow('light-bulb', [])];
    const json = JSON.parse(JSON.stringify({ inline: rows })) as { inline: Array<Record<string, unknown>> };
    for (const row of json.inline)
      for (const field of [
        'kind',
        'cold_first_line_ms',
        'warm_first_line_p50_ms',
        'warm_first_line_p90_ms',
        'lens_after_end_p50_ms',
        'lens_after_keep_p50_ms',
      ])
        assert.ok(field in row, field);
    assert.equal(json.inline[1]?.['warm_first_line_p50_ms'], null);
    assert.equal(json.inline[1]?.['kind'], 'light-bulb');
  });

  it('goals: first line warm ≤ 150 ms, lenses ≤ 100 ms after the end and after a Keep, cold and warm', () => {
    const goals = inlineGoals([inlineRow('ctrl-i', samples), inlineRow('light-bulb', samples)]);
    assert.deepEqual(
      goals.map((g) => g.met),
      [true, false, false, true, true, true],
    );
    assert.match(goals[1]?.detail ?? '', /cold 5000 ms, warm p50 302 ms/);
    // One window: the kind that went second has no cold run, and is judged on its warm runs.
    const warmOnly = inlineGoals([
      inlineRow(
        'light-bulb',
        samples.filter((s) => s.phase !== 'cold'),
      ),
    ]);
    assert.deepEqual(
      warmOnly.map((g) => g.met),
      [true, true, true],
    );
    assert.match(warmOnly[1]?.detail ?? '', /^no cold run, warm p50 60 ms/);
  });

  it('prints a row per kind and figure, the machine’s load beside them', () => {
    const inline = [inlineRow('ctrl-i', samples), inlineRow('light-bulb', samples)];
    const results: InlineResults = {
      started_at: '2026-12-07T05:00:00.000Z',
      machine: {
        cpus: 2,
        cpu_model: 'test',
        node: 'v20',
        platform: 'linux x64',
        load_avg_start: [9, 8, 7],
        load_avg_end: [10, 9, 8],
      },
      backend: 'test',
      inline,
      goals: inlineGoals(inline),
      samples,
    };
    const lines = inlineLines(results);
    assert.match(lines[0] ?? '', /load 9 8 7 → 10 9 8/);
    assert.ok(lines.some((line) => /^ctrl-i\s+input → first changed line \(page\)\s+400\s+140\s+170$/.test(line)));
    assert.ok(lines.some((line) => /^ctrl-i\s+Undo → lenses\s+—\s+290\s+290$/.test(line)));
    assert.ok(!lines.some((line) => /^light-bulb\s+Undo/.test(line)), 'no Undo row for the one-hunk fix');
    assert.ok(lines.some((line) => line.startsWith('  MISSED ctrl-i: lenses')));
  });
});
