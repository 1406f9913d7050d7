import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SCENARIOS } from '../../../src/server';
import { inlinePrompt } from '../../../src/extension/inline/inlineRequest';
import { inlineTools } from '../../../src/extension/inline/inlineWorkspace';
import { NO_MATCH_MAX, isNoMatchAnswer } from '../../../src/server/noMatchAnswer';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { eventsOf, useAgentBench } from '../agent/agentHarness';
import { repoRoot } from '../support/runProcess';

// Every prompt a new user is shown — the welcome's examples, the README's offline ones, the demo's own README —
// played by the real agent against the real embedded server with its default scenarios, on a copy of
// demo/workspace: each is answered from the demo's files (tool calls that run, an answer quoting code that is
// really there), never with the no-match answer. And that answer, for any other prompt, is short and says how
// to choose a real model. The prompts are read from where the user reads them, so a new one needs a scenario.

const DEMO = path.join(repoRoot, 'demo/workspace');

/** demo/workspace's files, path → text. */
function demoFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(DEMO, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(DEMO, file).split(path.sep).join('/')] = fs.readFileSync(file, 'utf8');
  }
  return files;
}

const DEMO_FILES = demoFiles();
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** The welcome's example prompts, as src/webview/welcome.ts lists them (the page's module needs a DOM). */
function welcomePrompts(): string[] {
  const list = /export const EXAMPLE_PROMPTS = \[([^\]]*)\]/.exec(read('src/webview/welcome.ts'))?.[1];
  assert.ok(list, 'EXAMPLE_PROMPTS is in welcome.ts');
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** What a zh-cn user clicks where the welcome shows a prompt translated (none, while the page shows them as is). */
function translatedWelcome(): string[] {
  const zh = JSON.parse(read('l10n/bundle.l10n.zh-cn.json')) as Record<string, string>;
  return welcomePrompts().flatMap((prompt) => (zh[prompt] === undefined ? [] : [zh[prompt]]));
}

/** The README's prompts for `loopwire exec` without `--endpoint` (the embedded backend answers them). */
function readmeExecPrompts(): string[] {
  return read('README.md')
    .split('\n')
    .filter((line) => /^loopwire exec /.test(line) && !line.includes('--endpoint'))
    .map((line) => /"([^"]+)"/.exec(line)?.[1] ?? '')
    .filter((prompt) => prompt !== '');
}

/** A prompt played, what must be called, and code that the answer quotes and the demo's files hold. */
interface Case {
  tools: string[];
  quotes: { text: string; from: string }[];
}

const CASES: Record<string, Case> = {
  'Fix the failing test.': {
    tools: ['run_task', 'search_text', 'read_file', 'apply_patch', 'run_task'],
    quotes: [
      { text: 'amount - percent', from: 'src/cart.js' },
      { text: 'applyDiscount', from: 'src/cart.js' },
    ],
  },
  'Explain how the cart total is computed.': {
    tools: ['read_file', 'read_file'],
    quotes: [
      { text: 'line.price * line.quantity', from: 'src/cart.js' },
      { text: 'lines.reduce((sum, line) => sum + lineTotal(line), 0)', from: 'src/cart.js' },
      { text: 'applyDiscount(subtotal, discountPercent)', from: 'src/cart.js' },
      { text: 'roundCents(amount - percent)', from: 'src/cart.js' },
      { text: 'Math.round', from: 'src/money.js' },
    ],
  },
  'Add a test for applyDiscount.': {
    tools: ['read_file', 'read_file', 'apply_patch', 'exec_command'],
    quotes: [
      { text: 'applyDiscount', from: 'src/cart.js' },
      { text: 'between 0 and 100 percent, not', from: 'src/cart.js' },
    ],
  },
  'Why does this fail?': {
    tools: ['run_task', 'read_file'],
    quotes: [
      { text: 'return roundCents(amount - percent);', from: 'src/cart.js' },
      { text: 'applyDiscount(999, 15)', from: 'test/cart.test.js' },
      { text: 'a 10% discount takes a tenth off the total', from: 'test/cart.test.js' },
    ],
  },
};

describe('default scenarios: every prompt a new user is shown', function () {
  this.timeout(60_000);
  const bench = useAgentBench(DEFAULT_SCENARIOS, DEMO_FILES);

  let plays = 0;
  /** Runs `prompt` to its end, an agent of its own: the calls made (name, whether it worked) and the last message. */
  async function play(prompt: string, inline = false) {
    // A lane of its own gives each agent of a test its own transcript file.
    const lane = `${inline ? 'inline' : 'play'}-${++plays}`;
    const { agent } = await bench.agent(
      inline ? { lane, registry: inlineTools(BUILTIN_TOOLS), endAfterEdit: true } : { lane },
    );
    const from = bench.events.length;
    const done = await agent.run(prompt);
    assert.equal(done.status, 'completed', done.reason);
    const events = bench.events.slice(from);
    const calls = eventsOf(events, 'tool_finished');
    const answer = eventsOf(events, 'message').at(-1)?.text ?? '';
    return { calls, answer };
  }

  it('the prompts are where the user reads them, and each has a case here', () => {
    const welcome = welcomePrompts();
    assert.equal(welcome.length, 3, 'three examples on the welcome');
    assert.deepEqual(readmeExecPrompts(), ['Fix the failing test.', 'Why does this fail?']);
    assert.match(read('demo/workspace/README.md'), /Ask Loopwire to "fix the failing test"/);
    for (const prompt of [...welcome, ...readmeExecPrompts()]) assert.ok(CASES[prompt], `a case for ${prompt}`);
  });

  for (const [prompt, expected] of Object.entries(CASES)) {
    it(`${JSON.stringify(prompt)}: answered from the demo's files, its tools run`, async () => {
      const { calls, answer } = await play(prompt);
      assert.deepEqual(
        calls.map((call) => call.name),
        expected.tools,
      );
      assert.ok(calls.at(-1)?.ok, `the last call worked: ${calls.at(-1)?.output}`);
      assert.doesNotMatch(answer, /no scenario matches|cannot explain/i);
      for (const { text, from } of expected.quotes) {
        assert.ok(DEMO_FILES[from]?.includes(text), `${from} holds ${text}`);
        assert.ok(answer.includes(text), `the answer quotes ${text}:\n${answer}`);
      }
    });
  }

  it('Add a test for applyDiscount: the tests land in test/cart.test.js, pass, and the rest stays', async () => {
    const { calls } = await play('Add a test for applyDiscount.');
    const run = calls.find((call) => call.name === 'exec_command');
    assert.match(run?.output ?? '', /\bpass 2\b/);
    assert.match(run?.output ?? '', /\bfail 0\b/);
    const after = bench.read('test/cart.test.js');
    assert.ok(after.startsWith(DEMO_FILES['test/cart.test.js'] ?? '?'), 'added at the end, nothing else changed');
    assert.match(after, /test\('applyDiscount refuses a negative discount'/);
    assert.match(after, /test\('applyDiscount takes nothing off at 0%'/);
  });

  it('the demo README and the welcome in other words: the same scenarios', async () => {
    for (const prompt of ['fix the failing test', 'How is the cart total computed?', 'write tests for applyDiscount'])
      assert.notEqual((await play(prompt)).calls.length, 0, prompt);
  });

  it('a translated welcome prompt (zh-cn) is answered too', async () => {
    for (const prompt of translatedWelcome()) assert.notEqual((await play(prompt)).calls.length, 0, prompt);
  });

  it('any other prompt: the task completes with a short answer naming --endpoint and Select Endpoint…', async () => {
    const { calls, answer } = await play('write me a sonnet about carts');
    assert.deepEqual(calls, []);
    assert.ok(answer.length <= NO_MATCH_MAX, `${answer.length} characters`);
    assert.match(answer, /offline model knows only the demo's tasks/);
    assert.match(answer, /`--endpoint URL`/);
    assert.match(answer, /Loopwire: Select Endpoint…/);
  });

  it('an inline edit it has no scenario for ends with that answer, which the editor tells from an edit', async () => {
    const request = {
      kind: 'edit' as const,
      path: 'src/cart.js',
      languageId: 'javascript',
      first: 10,
      last: 16,
      lines: (DEMO_FILES['src/cart.js'] ?? '').split('\n').slice(9, 16),
      instruction: 'take the percent of the amount',
      problems: [],
    };
    const { calls, answer } = await play(inlinePrompt(request), true);
    assert.deepEqual(calls, []);
    assert.ok(isNoMatchAnswer(answer), answer);
    assert.equal(bench.read('src/cart.js'), DEMO_FILES['src/cart.js'], 'nothing written');
  });
});
