import * as assert from 'node:assert/strict';
import {
  ADDED_GOAL_MS,
  type SandboxResults,
  median,
  quantile,
  sandboxGoals,
  sandboxLines,
  sandboxRow,
  sandboxTask,
} from '../../bench/sandbox/sandboxFigures';

// The sandbox bench's figures and the shape others read (issue 46, item 6: `{ "sandbox": [ { "command",
// "plain_p50_ms", "sandboxed_p50_ms", "mechanism" } ] }`), with and without a sandbox on the machine.

const machine = {
  cpus: 2,
  cpu_model: 'test',
  node: 'v20',
  platform: 'linux x64',
  load_avg_start: [1, 1, 1],
  load_avg_end: [1, 1, 1],
};

describe('sandbox bench figures', () => {
  it('p50 is the median (the middle two averaged), p90 the nearest rank below', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([]), 0);
    const tens = Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
    assert.equal(quantile(tens, 0.9), 100);
    assert.equal(quantile(tens, 0.5), 60);
  });

  it('a row carries the contract fields, the added p50 the difference of the medians', () => {
    const row = sandboxRow('git status', 'bwrap', [10, 12, 11], [40, 45, 41]);
    assert.deepEqual(row, {
      command: 'git status',
      plain_p50_ms: 11,
      sandboxed_p50_ms: 41,
      mechanism: 'bwrap',
      plain_p90_ms: 12,
      sandboxed_p90_ms: 45,
      added_p50_ms: 30,
      runs: 3,
    });
    const json = JSON.parse(JSON.stringify({ sandbox: [row] })) as { sandbox: Array<Record<string, unknown>> };
    for (const field of ['command', 'plain_p50_ms', 'sandboxed_p50_ms', 'mechanism'])
      assert.ok(field in (json.sandbox[0] ?? {}), field);
  });

  it('with no sandbox the mechanism is none and the sandboxed figures null, not zero', () => {
    const row = sandboxRow('true', 'bwrap', [2, 3], null);
    assert.equal(row.mechanism, 'none');
    assert.equal(row.sandboxed_p50_ms, null);
    assert.equal(row.sandboxed_p90_ms, null);
    assert.equal(row.added_p50_ms, null);
    assert.equal((JSON.parse(JSON.stringify(row)) as typeof row).sandboxed_p50_ms, null);
  });

  it("the task's added time is per command, beside the commands' own added p50 averaged over its calls", () => {
    const rows = [sandboxRow('a', 'bwrap', [10], [30]), sandboxRow('b', 'bwrap', [10], [50])];
    const task = sandboxTask(['a', 'b', 'a', 'b'], [1000, 1100, 1050], [1200, 1250, 1150], rows);
    assert.equal(task.commands, 4);
    assert.equal(task.all_ms, 1050);
    assert.equal(task.auto_ms, 1200);
    assert.equal(task.added_per_command_ms, 37.5);
    assert.equal(task.expected_per_command_ms, 30);
    const none = sandboxTask(['a'], [1000], null, []);
    assert.equal(none.auto_ms, null);
    assert.equal(none.added_per_command_ms, null);
  });

  it('goals are judged against 40 ms where there is a sandbox, and there is none to judge without', () => {
    const results: SandboxResults = {
      started_at: '2026-12-06T00:00:00.000Z',
      machine,
      goal_added_p50_ms: ADDED_GOAL_MS,
      sandbox: [sandboxRow('true', 'bwrap', [5], [30]), sandboxRow('node -e 0', 'bwrap', [40], [90])],
    };
    assert.deepEqual(
      sandboxGoals(results).map((goal) => goal.met),
      [true, false],
    );
    const lines = sandboxLines(results);
    assert.match(
      lines[0] ?? '',
      /^command\s+plain p50\s+plain p90\s+sandboxed p50\s+sandboxed p90\s+added p50\s+mechanism$/,
    );
    assert.ok(lines.some((line) => /MISSED node -e 0/.test(line)));
    const plainOnly = { ...results, sandbox: [sandboxRow('true', 'none', [5], null)] };
    assert.deepEqual(sandboxGoals(plainOnly), []);
    assert.match(sandboxLines(plainOnly)[1] ?? '', /—\s+—\s+—\s+none$/);
  });
});
