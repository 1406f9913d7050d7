import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../src/server';
import { inlineTools } from '../../../src/extension/inline/inlineWorkspace';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { eventsOf, requestsOf, useAgentBench } from './agentHarness';

// An inline fix is one request in the common case: an agent made with `endAfterEdit` (the inline lane's) ends
// its task once a response's edit ran, with no request for a closing answer; the note is the text the model
// wrote beside the call. A patch that did not apply goes back to the model, which tries again (a second
// request). Against the real bundled server, counted on its wire log and its turns.

const BROKEN = '{\n  "currency": "EUR",\n  "freeShippingFrom": 5000,,\n  "zones": ["eu"]\n}\n';
const FIXED = BROKEN.replace('5000,,', '5000,');

const edit = (from: string, to: string) => ({
  type: 'function_call' as const,
  name: 'edit_file',
  arguments: { path: 'config/shipping.json', edits: [{ old_string: from, new_string: to }] },
});

const scenarios: ScenarioFile = {
  scenarios: [
    {
      name: 'fix-at-once',
      match: 'fix the comma',
      steps: [
        { output: [{ type: 'message', text: 'Removed the doubled comma.' }, edit('5000,,', '5000,')] },
        { output: [{ type: 'message', text: 'A closing answer nobody needs.' }] },
      ],
    },
    {
      name: 'fix-after-a-miss',
      match: 'fix it after a miss',
      steps: [
        { output: [edit('"freeShippingFrom": 4000,,', '"freeShippingFrom": 4000,')] },
        { output: [{ type: 'message', text: 'Now with the right line.' }, edit('5000,,', '5000,')] },
        { output: [{ type: 'message', text: 'A closing answer nobody needs.' }] },
      ],
    },
  ],
};

describe('agent: an inline edit ends on its edit (endAfterEdit)', () => {
  const bench = useAgentBench(scenarios, { 'config/shipping.json': BROKEN });
  const inline = { lane: 'inline-1', registry: inlineTools(BUILTIN_TOOLS), endAfterEdit: true };
  /** The server's generating turns: the lane's warm-up (generate: false, no output) is none. */
  const generated = () => bench.turns.filter((turn) => turn.outputTokens > 0).length;
  /** The wire's response.create frames after the lane's warm-up (the first, which starts the chain). */
  const modelRequests = async () => {
    const [warmUp, ...rest] = requestsOf(await bench.wire());
    assert.equal(warmUp?.previous_response_id, null, 'the warm-up starts the chain');
    return rest;
  };

  it('an edit that applies ends the task: one request, the note the text beside the call', async () => {
    const { agent } = await bench.agent(inline);
    const done = await agent.run('Please fix the comma in config/shipping.json.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(done.code, 'edit_made', 'a program tells this end by its code, whatever the language');
    assert.equal(done.turns, 1);
    assert.equal(bench.read('config/shipping.json'), FIXED);
    assert.equal(generated(), 1, 'one request');
    assert.equal((await modelRequests()).length, 1, 'one response.create on the wire after the warm-up');
    const said = eventsOf(bench.events, 'message').map((event) => event.text);
    assert.deepEqual(said, ['Removed the doubled comma.']);
  });

  it('a patch that did not apply goes back to the model: a second request, then it ends', async () => {
    const { agent } = await bench.agent(inline);
    const done = await agent.run('Please fix it after a miss.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(bench.read('config/shipping.json'), FIXED);
    const finished = eventsOf(bench.events, 'tool_finished').map((event) => event.ok);
    assert.deepEqual(finished, [false, true], 'the miss, then the edit');
    assert.equal(generated(), 2, 'the miss and the retry, no closing answer');
    assert.equal((await modelRequests()).length, 2);
  });

  it("without it (the chat's agent), the model is asked for a closing answer after the edit", async () => {
    const { agent } = await bench.agent({ lane: 'chat' });
    const done = await agent.run('Please fix the comma in config/shipping.json.');
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(done.code, 'answered');
    assert.equal(bench.read('config/shipping.json'), FIXED);
    assert.equal(generated(), 2, 'the edit, then the answer');
  });
});
