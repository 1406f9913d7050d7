import * as assert from 'node:assert/strict';
import { NO_PROGRESS_LIMIT, ProgressWatch } from '../../../src/agent/progressWatch';
import type { CallItem } from '../../../src/protocol';
import type { ScenarioFile } from '../../../src/server';
import { callSignature } from '../../../src/agent/toolRunner';
import { useAgentBench } from './agentHarness';

// A task stops when it goes round in circles — the same failing call again and again, or responses with
// neither a call nor an answer — not after a number of responses: a long task of many small reads goes on.

const call = (path: string, id = 'c'): CallItem => ({
  type: 'function_call',
  call_id: id,
  name: 'read_file',
  arguments: JSON.stringify({ path }),
});

describe('agent: progress, not a turn count', () => {
  it('counts only responses whose calls all failed before, the same way, or that say nothing', () => {
    const watch = new ProgressWatch();
    const missing = call('missing.txt');
    assert.equal(watch.record([missing], [callSignature(missing)], false), true, 'a first failure is progress');
    // Each repeat of it is not: the third in a row stops the task.
    for (let i = 1; i <= NO_PROGRESS_LIMIT; i++)
      assert.equal(watch.record([missing], [callSignature(missing)], false), i < NO_PROGRESS_LIMIT, `repeat ${i}`);
    assert.deepEqual(watch.stop().slice(0, 1), ['stopped']);
    assert.equal(watch.stop()[2], 'no_progress');
  });

  it('starts the count again on any progress: another call, a success, an answer', () => {
    const watch = new ProgressWatch();
    const missing = call('missing.txt');
    const failing = [callSignature(missing)];
    watch.record([missing], failing, false);
    watch.record([missing], failing, false);
    assert.equal(watch.record([call('other.txt')], [], false), true, 'a call that works is progress');
    watch.record([missing], failing, false);
    assert.equal(watch.record([missing], failing, false), true, 'two again, not three');
    const silent = new ProgressWatch();
    for (let i = 1; i < NO_PROGRESS_LIMIT; i++) assert.equal(silent.record([], [], false), true);
    assert.equal(silent.record([], [], false), false, 'neither a call nor an answer, three times');
    assert.equal(new ProgressWatch().record([], [], true), true, 'an answer is progress');
  });

  describe('against the real server', function () {
    this.timeout(20_000);
    const reads = Array.from({ length: 60 }, (_, i) => ({
      output: [{ type: 'function_call' as const, name: 'read_file', arguments: { path: `f${i % 3}.txt` } }],
    }));
    const scenario: ScenarioFile = {
      scenarios: [
        {
          name: 'circles',
          match: 'go round',
          steps: Array.from({ length: 8 }, () => ({
            output: [{ type: 'function_call' as const, name: 'read_file', arguments: { path: 'missing.txt' } }],
          })),
        },
        {
          name: 'long',
          match: 'read a lot',
          steps: [...reads, { output: [{ type: 'message', text: 'Read them all.' }] }],
        },
      ],
    };
    const bench = useAgentBench(scenario, { 'f0.txt': 'zero\n', 'f1.txt': 'one\n', 'f2.txt': 'two\n' });

    it('stops a model that repeats a failing call, at the third repeat, saying why', async () => {
      const { agent } = await bench.agent();
      const done = await agent.run('go round in circles');
      assert.equal(done.status, 'stopped');
      assert.equal(done.code, 'no_progress');
      assert.match(done.reason, /no progress in 3 responses in a row/);
      assert.equal(done.turns, 1 + NO_PROGRESS_LIMIT, 'the first failure, then three repeats');
    });

    it('lets a long task of 61 responses run to its end (the old cap was 50)', async () => {
      const { agent } = await bench.agent();
      const done = await agent.run('read a lot');
      assert.equal(done.status, 'completed', done.reason);
      assert.equal(done.turns, 61);
    });
  });
});
