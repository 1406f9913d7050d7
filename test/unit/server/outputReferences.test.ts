import * as assert from 'node:assert/strict';
import type { AnyInputItem } from '../../../src/protocol';
import { outputsSincePrompt, substituteOutputs } from '../../../src/server/outputReferences';
import { ScriptedModel } from '../../../src/server/scriptedModel';

// A scenario step may use what earlier calls returned (`{{output.N.PATH}}`): the ids spawn_agent answered,
// for the wait that follows. Outputs count from the latest prompt; what is not there is left as written.

const user = (content: string): AnyInputItem => ({ role: 'user', content });
const call = (id: string): AnyInputItem => ({ type: 'function_call', call_id: id, name: 'x', arguments: '{}' });
const output = (id: string, text: string): AnyInputItem => ({
  type: 'function_call_output',
  call_id: id,
  output: text,
});

describe('scripted model: references to earlier call outputs', () => {
  it('fills a field of the N-th output since the prompt, nested or not a string; leaves what is missing', () => {
    const outputs = ['{"agent_id":"a1"}', '{"status":{"a1":{"completed":"done"}},"n":3}', 'not json'];
    assert.equal(substituteOutputs('{{output.1.agent_id}}', outputs), 'a1');
    assert.equal(substituteOutputs('{{output.2.status.a1.completed}} {{output.2.n}}', outputs), 'done 3');
    assert.equal(substituteOutputs('{{output.2.status.a1}}', outputs), '{"completed":"done"}');
    for (const missing of ['{{output.3.x}}', '{{output.4.agent_id}}', '{{output.1.nope}}', '{{output.1}}'])
      assert.equal(substituteOutputs(missing, outputs), missing);
  });

  it('counts outputs from the latest prompt, text parts joined', () => {
    const items = [
      user('first'),
      call('a'),
      output('a', '{"agent_id":"old"}'),
      user('second'),
      call('b'),
      output('b', '{"agent_id":"new"}'),
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: '{"k":1}' }] },
    ] as AnyInputItem[];
    assert.deepEqual(outputsSincePrompt(items), ['{"agent_id":"new"}', '{"k":1}']);
  });

  it("a step's arguments wait for the ids the first step's calls answered", () => {
    const model = new ScriptedModel([
      {
        scenarios: [
          {
            name: 'spawn-wait',
            match: '^go',
            steps: [
              { output: [{ type: 'function_call', name: 'x', arguments: {} }] },
              {
                output: [
                  {
                    type: 'function_call',
                    name: 'y',
                    arguments: { ids: ['{{output.1.agent_id}}', '{{output.2.agent_id}}'] },
                  },
                ],
              },
            ],
          },
        ],
      },
    ]);
    const turn = model.respond([
      user('go'),
      call('a'),
      call('b'),
      output('a', '{"agent_id":"one"}'),
      output('b', '{"agent_id":"two"}'),
    ]);
    const item = turn.output[0] as { arguments?: string };
    assert.deepEqual(JSON.parse(item.arguments ?? '{}'), { ids: ['one', 'two'] });
  });
});
