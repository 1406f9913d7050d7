import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { AnyInputItem } from '../../../src/protocol';
import { ScenarioFileError, parseScenarioFile } from '../../../src/server';
import { ScriptedModel, locateStep } from '../../../src/server/scriptedModel';
import { ECHO_SCENARIO } from './support/harness';

const user = (content: string): AnyInputItem => ({ role: 'user', content });
const call = (id: string): AnyInputItem => ({
  type: 'function_call',
  call_id: id,
  name: 'exec_command',
  arguments: '{}',
});
const output = (id: string): AnyInputItem => ({ type: 'function_call_output', call_id: id, output: 'ok' });
const said = (text: string): AnyInputItem => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});

describe('scripted model: which step answers', () => {
  it('step = 1 + model responses since the latest user message; a run of model items is one response', () => {
    assert.deepEqual(locateStep([user('echo hi')]), { prompt: 'echo hi', step: 1 });
    assert.deepEqual(locateStep([user('echo hi'), call('a'), output('a')]), { prompt: 'echo hi', step: 2 });
    const reasoningThenCalls: AnyInputItem = { type: 'reasoning', summary: [] };
    assert.deepEqual(
      locateStep([user('x'), reasoningThenCalls, call('a'), call('b'), output('a'), output('b'), said('done')]),
      { prompt: 'x', step: 3 },
      'reasoning + two parallel calls were one response; the message a second',
    );
    assert.deepEqual(locateStep([user('first'), said('ok'), user('second')]), { prompt: 'second', step: 1 });
    assert.equal(locateStep([{ role: 'developer', content: 'rules' }]), undefined);
  });

  it('the prompt is the text of input_text parts; developer and system messages are not the user', () => {
    const parts: AnyInputItem = {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'echo' },
        { type: 'input_text', text: 'hi' },
      ],
    };
    assert.deepEqual(locateStep([parts, { role: 'developer', content: 'later rules' }]), {
      prompt: 'echo\nhi',
      step: 1,
    });
  });

  it('first matching scenario wins, in load order; matching is case-insensitive', () => {
    const model = new ScriptedModel([
      { scenarios: [{ name: 'one', match: 'ECHO', steps: [{ output: [{ type: 'message', text: '1' }] }] }] },
      { scenarios: [{ name: 'two', match: 'echo hi', steps: [{ output: [{ type: 'message', text: '2' }] }] }] },
    ]);
    assert.equal(model.respond([user('please echo hi')]).trace, 'one#1');
  });

  it('assigns fresh ids and call_ids, and sends object arguments as JSON text', () => {
    const model = new ScriptedModel([parseScenarioFile(fs.readFileSync(ECHO_SCENARIO, 'utf8'), 'echo.json')]);
    const [a] = model.respond([user('echo hi')]).output;
    const [b] = model.respond([user('echo hi')]).output;
    assert.ok(a?.type === 'function_call' && b?.type === 'function_call');
    assert.equal(a.arguments, '{"cmd":"echo hi"}');
    assert.notEqual(a.call_id, b.call_id);
    assert.notEqual(a.id, b.id);
  });
});

describe('scenario files', () => {
  it('accepts the documented form', () => {
    const file = parseScenarioFile(fs.readFileSync(ECHO_SCENARIO, 'utf8'), 'echo.json');
    assert.equal(file.scenarios[0]?.steps.length, 2);
  });

  for (const [why, text, message] of [
    ['not JSON', '{"scenarios": [', /bad\.json: not JSON/],
    ['a misspelt key', '{"scenarios":[{"name":"x","match":"x","step":[]}]}', /bad\.json: scenarios\.0/],
    [
      'an invalid regular expression',
      '{"scenarios":[{"name":"x","match":"(","steps":[{"output":[{"type":"message","text":"t"}]}]}]}',
      /not a valid regular expression/,
    ],
    [
      'an unknown item type',
      '{"scenarios":[{"name":"x","match":"x","steps":[{"output":[{"type":"shell","cmd":"ls"}]}]}]}',
      /scenarios\.0\.steps\.0\.output\.0/,
    ],
    ['an empty step list', '{"scenarios":[{"name":"x","match":"x","steps":[]}]}', /steps/],
  ] as const) {
    it(`refuses ${why}, naming the file and the field`, () => {
      assert.throws(
        () => parseScenarioFile(text, 'bad.json'),
        (error: unknown) => {
          assert.ok(error instanceof ScenarioFileError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});
