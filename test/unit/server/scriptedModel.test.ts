import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { AnyInputItem, OutputItem } from '../../../src/protocol';
import { ScenarioFileError, parseScenarioFile } from '../../../src/server';
import type { ScenarioItem } from '../../../src/server/scenarioFile';
import { NO_MATCH_MAX, isNoMatchAnswer } from '../../../src/server/noMatchAnswer';
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

  it('accepts an optional example prompt per scenario', () => {
    const text =
      '{"scenarios":[{"name":"x","match":"^x","example":"x marks","steps":[{"output":[{"type":"message","text":"t"}]}]}]}';
    assert.equal(parseScenarioFile(text, 'x.json').scenarios[0]?.example, 'x marks');
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
    [
      'an example that is not a string',
      '{"scenarios":[{"name":"x","match":"x","example":3,"steps":[{"output":[{"type":"message","text":"t"}]}]}]}',
      /bad\.json: scenarios\.0\.example/,
    ],
    [
      'a misspelt example key',
      '{"scenarios":[{"name":"x","match":"x","examples":"x","steps":[{"output":[{"type":"message","text":"t"}]}]}]}',
      /bad\.json: scenarios\.0/,
    ],
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

describe('scripted model: capture groups', () => {
  const one = (match: string, ...steps: ScenarioItem[][]): ScriptedModel =>
    new ScriptedModel([{ scenarios: [{ name: 'c', match, steps: steps.map((output) => ({ output })) }] }]);
  const first = (model: ScriptedModel, items: AnyInputItem[]) => {
    const [item] = model.respond(items).output;
    assert.ok(item, 'one output item');
    return item;
  };
  const text = (item: OutputItem): string => {
    assert.ok(item.type === 'message');
    return item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
  };

  it('fills object arguments before they become JSON: quotes and backslashes in the prompt stay valid', () => {
    const model = one('^say (?<said>.+) to (\\S+)$', [
      {
        type: 'function_call',
        name: 'exec_command',
        arguments: { cmd: 'echo {{said}}', to: '{{2}}', nested: { list: ['{{1}}!', 3, true, null] }, '{{2}}': 'key' },
      },
    ]);
    const said = String.raw`"it's" C:\temp\n {"a":1}`;
    const call = first(model, [user(`say ${said} to bob`)]);
    assert.ok(call.type === 'function_call');
    assert.deepEqual(JSON.parse(call.arguments), {
      cmd: `echo ${said}`,
      to: 'bob',
      nested: { list: [`${said}!`, 3, true, null] },
      '{{2}}': 'key',
    });
  });

  it('fills string arguments as raw text, custom tool input, message text and reasoning summaries', () => {
    const model = one(
      'patch (?<file>\\S+)',
      [{ type: 'function_call', name: 'f', arguments: '{"file": {{file}}}' }],
      [{ type: 'custom_tool_call', name: 'apply_patch', input: '*** Update File: {{file}}\n' }],
      [{ type: 'reasoning', summary: 'look at {{file}}' }],
      [{ type: 'reasoning', summary: ['one {{1}}', 'two {{file}}'] }],
      [{ type: 'message', text: 'Patched {{file}} ({{1}}).' }],
    );
    const prompt = user('please patch "a.ts" now');
    // Step k + 1 after k model responses; each step is filled from the same prompt's groups.
    const at = (step: number): AnyInputItem[] => [
      prompt,
      ...Array.from({ length: step - 1 }, (_, i) => [call(`c${i}`), output(`c${i}`)]).flat(),
    ];
    const raw = first(model, at(1));
    assert.ok(raw.type === 'function_call');
    assert.equal(raw.arguments, '{"file": "a.ts"}', 'raw: the capture brought its own quotes');
    const custom = first(model, at(2));
    assert.ok(custom.type === 'custom_tool_call');
    assert.equal(custom.input, '*** Update File: "a.ts"\n');
    const reasoning = first(model, at(3));
    assert.ok(reasoning.type === 'reasoning');
    assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'look at "a.ts"' }]);
    const parts = first(model, at(4));
    assert.ok(parts.type === 'reasoning');
    assert.deepEqual(
      parts.summary.map((part) => part.text),
      ['one "a.ts"', 'two "a.ts"'],
    );
    assert.equal(text(first(model, at(5))), 'Patched "a.ts" ("a.ts").');
  });

  it('a group that did not take part is empty; a reference to no group, or no reference, is left as written', () => {
    const model = one('^go(?: to (?<where>\\w+))?(?: by (\\w+))?$', [
      { type: 'message', text: '[{{where}}|{{2}}|{{1}}] {{3}} {{nope}} {{0}} {{ 1 }} {{}} {{1 {{where}' },
    ]);
    assert.equal(text(first(model, [user('go by bus')])), '[|bus|] {{3}} {{nope}} {{0}} {{ 1 }} {{}} {{1 {{where}');
    assert.equal(
      text(first(model, [user('go to town')])),
      '[town||town] {{3}} {{nope}} {{0}} {{ 1 }} {{}} {{1 {{where}',
    );
  });

  it('a scenario without groups sends its strings unchanged, braces and all', () => {
    const args = { content: 'Hello {{name}}, you are {{1}} today. {{{x}}}' };
    const model = one(
      'template',
      [{ type: 'function_call', name: 'write_file', arguments: args }],
      [{ type: 'message', text: 'Wrote {{name}} and {{1}}.' }],
    );
    const call = first(model, [user('write a template')]);
    assert.ok(call.type === 'function_call');
    assert.equal(call.arguments, JSON.stringify(args));
    assert.equal(
      text(first(model, [user('write a template'), { ...call }, output(call.call_id)])),
      'Wrote {{name}} and {{1}}.',
    );
    const echo = new ScriptedModel([parseScenarioFile(fs.readFileSync(ECHO_SCENARIO, 'utf8'), 'echo.json')]);
    const plain = first(echo, [user('echo hi')]);
    assert.ok(plain.type === 'function_call');
    assert.equal(plain.arguments, '{"cmd":"echo hi"}');
  });
});

describe('scripted model: the answer to a prompt no scenario matches', () => {
  const scenario = (name: string, match: string, example?: string) => ({
    name,
    match,
    ...(example === undefined ? {} : { example }),
    steps: [{ output: [{ type: 'message' as const, text: name }] }],
  });
  const answer = (model: ScriptedModel, prompt = 'write me a sonnet') => {
    const turn = model.respond([user(prompt)]);
    assert.equal(turn.trace, 'no match');
    const [item] = turn.output;
    assert.ok(item?.type === 'message');
    return item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
  };

  it('is short: the offline model knows only the demo, how to choose a real one, how to add a scenario', () => {
    const model = new ScriptedModel([{ scenarios: [scenario('mine', '^deploy', 'deploy to staging')] }]);
    const text = answer(model);
    assert.ok(text.length <= NO_MATCH_MAX, `${text.length} characters`);
    assert.match(text, /^Loopwire's offline model knows only the demo's tasks: no scenario matches this prompt\. /);
    assert.match(text, /`--endpoint URL` \(loopwire exec\) or Loopwire: Select Endpoint… \(VS Code\)\./);
    assert.ok(!text.includes('deploy to staging'), 'no list of examples: docs/backend.md has it');
    assert.match(text, / write a scenario file and start loopwire-server with --scenario FILE\.$/);
    assert.ok(isNoMatchAnswer(text));
    assert.ok(!isNoMatchAnswer('Removed the doubled comma.'));
  });

  it('says so when no scenario is loaded', () => {
    assert.match(
      answer(new ScriptedModel([])),
      /^Loopwire's offline model has no scenario loaded: no scenario matches/,
    );
  });

  it("ends with how to add a scenario in the front end that started it, each front end's within 300 characters", () => {
    for (const hint of [
      'add --scenario FILE to loopwire exec',
      'start loopwire-server with --scenario FILE',
      'add it to the `loopwire.scenarioFiles` setting',
    ]) {
      const text = answer(new ScriptedModel([{ scenarios: [scenario('a', '^a$', 'a')] }], hint));
      assert.ok(text.endsWith(` write a scenario file and ${hint}.`), text);
      assert.ok(text.length <= NO_MATCH_MAX, `${text.length} characters with ${hint}`);
    }
    // A hint too long to fit is left out rather than the answer let grow.
    const long = answer(new ScriptedModel([], 'x'.repeat(300)));
    assert.ok(long.length <= NO_MATCH_MAX && long.endsWith('(VS Code).'), long);
  });
});
