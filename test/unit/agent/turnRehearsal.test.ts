import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, ModelTransport, Transcript, approveAll } from '../../../src/agent';
import { GAP_PHASES, TurnGap } from '../../../src/agent/timing/turnGap';
import { rehearseSync } from '../../../src/agent/turnRehearsal';
import type { ScenarioFile } from '../../../src/server';
import { BUILTIN_TOOLS, ReadLedger } from '../../../src/tools';
import type { Workspace } from '../../../src/workspace';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { eventsOf, useAgentBench } from './agentHarness';

// Issue 51: a task's first turnarounds ran the loop's code for the first time in the process (~20 ms after
// the first call, ~25 ms between the warm-up and the prompt). The agent rehearses that code while its socket
// warms up, and each turn's figures split its turnaround into the loop's phases.

describe('agent: the first turnarounds', () => {
  describe('the rehearsal at start', () => {
    let dir = '';
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-rehearsal-'));
      fs.writeFileSync(path.join(dir, 'README.md'), '# A project\n');
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reads a made-up response to its end, its one call included', () => {
      // The sample must stay a valid response: one that failed to parse would compile nothing past the error.
      const workspace = {} as Workspace;
      const tools = { workspace, reads: new ReadLedger() };
      assert.equal(rehearseSync({ tools, registry: BUILTIN_TOOLS }), 1);
      // With the tools offered echoed in it, as a server echoes them: still a valid response.
      assert.equal(rehearseSync({ tools, registry: BUILTIN_TOOLS, toolSpecs: BUILTIN_TOOLS.offer('gpt-5.5') }), 1);
    });

    it('reads a file, and the environment item, before the first request, and keeps nothing', async () => {
      const real = await NodeWorkspace.open(dir);
      const reads: string[] = [];
      const workspace: Workspace = Object.create(real) as Workspace;
      workspace.readFile = (given) => {
        reads.push(given);
        return real.readFile(given);
      };
      let environmentReads = 0;
      const events: unknown[] = [];
      const transcript = Transcript.create({
        id: 't',
        createdAt: new Date().toISOString(),
        workspace: dir,
        model: 'gpt-5.5',
      });
      const agent = new Agent({
        // Over HTTP the transport has nothing to warm up: whatever ran at start is the rehearsal's.
        transport: new ModelTransport({
          endpoint: 'http://127.0.0.1:9/v1',
          transport: 'http',
          emit: () => undefined,
        }),
        transcript,
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'You are a test agent.',
        toolSpecs: BUILTIN_TOOLS.offer('gpt-5.5'),
        approvals: approveAll,
        environment: () => {
          environmentReads++;
          return '<environment_context></environment_context>';
        },
        emit: (event) => events.push(event),
      });
      await agent.start();
      assert.deepEqual(reads, ['README.md']);
      assert.equal(environmentReads, 1);
      assert.deepEqual(transcript.items, []);
      assert.equal(events.filter((event) => (event as { type: string }).type !== 'transport').length, 0);
    });
  });

  describe('the gap split', () => {
    it('adds up to the gap, an approval wait left out', () => {
      const gap = new TurnGap(100);
      gap.mark('response', 0, 100.5);
      gap.mark('keep', 0, 101);
      gap.mark('tools', 1000, 1104);
      gap.mark('after', 0, 1104.5);
      gap.mark('next', 0, 1105);
      const split = gap.end(1106);
      assert.deepEqual(Object.keys(split), [...GAP_PHASES]);
      assert.equal(split.tools, 3);
      assert.equal(split.request, 1);
      const sum = GAP_PHASES.reduce((total, phase) => total + split[phase], 0);
      assert.equal(sum, 1106 - 100 - 1000);
    });

    const scenario: ScenarioFile = {
      scenarios: [
        {
          name: 'reads',
          match: 'read twice',
          steps: [
            { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'a.txt' } }] },
            { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'a.txt' } }] },
            { output: [{ type: 'message', text: 'Read.' }] },
          ],
        },
      ],
    };
    const bench = useAgentBench(scenario, { 'a.txt': 'alpha\n' });

    it("comes with every turn that had a gap, and adds up to the turn's gapMs", async function () {
      this.timeout(20_000);
      const { agent } = await bench.agent();
      await agent.start();
      const done = await agent.run('read twice');
      assert.equal(done.status, 'completed', done.reason);
      const turns = eventsOf(bench.events, 'turn_finished').map((event) => event.metrics);
      assert.equal(turns.length, 3);
      assert.equal(turns[0]?.gapPhasesMs, undefined, 'the first request follows the prompt, not a response');
      for (const metrics of turns.slice(1)) {
        const split = metrics.gapPhasesMs;
        assert.ok(split, `turn ${metrics.turn} has its split`);
        const sum = GAP_PHASES.reduce((total, phase) => total + split[phase], 0);
        assert.ok(Math.abs(sum - (metrics.gapMs ?? -1)) < 0.01, `${sum} against ${metrics.gapMs}`);
      }
    });
  });
});
