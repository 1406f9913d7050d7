import { readFileSync } from 'node:fs';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_SCENARIOS, parseScenarioFile } from '../../../src/server';
import { ScriptedModel } from '../../../src/server/scriptedModel';
import { TOOLS, isToolName } from '../../../src/tools';
import { repoRoot } from '../support/runProcess';
import { DEMO, demoSession, messageOf } from './support/demoSession';

// The default scenarios: the files themselves, the example prompt of each, and the demo's tasks played end to
// end on a copy of demo/workspace (support/demoSession.ts). The everyday prompts (find, search, read, replace,
// run a task): everydayScenarios.test.ts.

const DEFAULT_FILES = ['review.json', 'demo.json', 'default.json'].map((name) =>
  path.join(repoRoot, 'src/server/scenarios', name),
);

describe('default scenarios: the file', () => {
  it('are valid scenario files, strictly parsed, and each scenario is one on its own', async () => {
    const texts = await Promise.all(DEFAULT_FILES.map((file) => fs.readFile(file, 'utf8')));
    const parsed = texts.flatMap((text) => parseScenarioFile(text, 'default.json').scenarios);
    assert.deepEqual({ scenarios: parsed }, DEFAULT_SCENARIOS);
    const raw = texts.flatMap((text) => (JSON.parse(text) as { scenarios: unknown[] }).scenarios);
    assert.equal(raw.length, DEFAULT_SCENARIOS.scenarios.length);
    for (const scenario of raw) parseScenarioFile(JSON.stringify({ scenarios: [scenario] }), 'one.json');
    assert.deepEqual(
      DEFAULT_SCENARIOS.scenarios.map((scenario) => scenario.name),
      [
        'review-demo-discount',
        'review',
        'demo-fix-json',
        'demo-inline-fix-json',
        'demo-fix-test',
        'demo-explain-total',
        'demo-add-test',
        'demo-why-fail',
        'demo-explain-cart',
        'demo-explain-money',
        'explain-selection',
        'replace-text',
        'list-tasks',
        'run-tests',
        'run-task',
        'find-files',
        'search-text',
        'read-file',
        'run-command',
      ],
    );
  });

  it('calls only the agent tools, with arguments their schemas accept once the captures are filled', () => {
    for (const scenario of DEFAULT_SCENARIOS.scenarios) {
      for (const [index, step] of scenario.steps.entries()) {
        for (const item of step.output) {
          const where = `${scenario.name}#${index + 1}`;
          if (item.type === 'custom_tool_call') assert.equal(item.name, 'apply_patch', where);
          if (item.type !== 'function_call') continue;
          assert.ok(isToolName(item.name), `${where}: ${item.name} is a tool`);
          assert.ok(typeof item.arguments === 'object', `${where}: object arguments`);
          const filled = JSON.parse(JSON.stringify(item.arguments).replace(/\{\{\w+\}\}/g, 'x')) as unknown;
          const parsed = TOOLS[item.name].args.safeParse(filled);
          assert.ok(parsed.success, `${where}: ${parsed.error?.message}`);
        }
      }
    }
  });
});

/**
 * The scenarios that answer what a person types. A review's (review.json) answer the prompt `/review` makes, a
 * diff no one types: they have no example (test/unit/agent/review/reviewScenario.test.ts plays them).
 */
const TYPED = DEFAULT_SCENARIOS.scenarios.filter((scenario) => !scenario.match.startsWith('^Review the code changes'));

describe('default scenarios: example prompts', () => {
  it('each scenario has an example prompt that its own match fits, and that the model answers with it', () => {
    const model = new ScriptedModel([DEFAULT_SCENARIOS]);
    assert.equal(DEFAULT_SCENARIOS.scenarios.length - TYPED.length, 2);
    for (const scenario of TYPED) {
      const { name, example } = scenario;
      assert.ok(example !== undefined && example.trim() !== '', `${name} has an example`);
      assert.match(example, new RegExp(scenario.match, 'i'), `${name}: its match fits its example`);
      // An earlier scenario taking the example would make it a lie in the no-match answer.
      assert.equal(model.respond([{ role: 'user', content: example }]).trace, `${name}#1`, example);
    }
  });

  it('are listed in docs/backend.md, where the answer to a prompt nothing matches sends no list', () => {
    const rows = readFileSync(path.join(repoRoot, 'docs/backend.md'), 'utf8').split('\n');
    for (const { name, example } of TYPED)
      assert.ok(
        rows.some((row) => row.startsWith(`| \`${example ?? '?'}\` `)),
        `${name}'s example is in the docs' table`,
      );
    const model = new ScriptedModel([DEFAULT_SCENARIOS]);
    const { trace, output } = model.respond([{ role: 'user', content: 'write me a sonnet' }]);
    assert.equal(trace, 'no match');
    assert.match(
      messageOf({ trace, output, calls: [] }),
      /^Loopwire's offline model knows only the demo's tasks: .* write a scenario file and start loopwire-server with --scenario FILE\.$/,
    );
  });
});

describe('default scenarios: the demo task on demo/workspace', function () {
  this.timeout(60_000);

  it("fixes the demo's broken JSON from the prompt Fix with Loopwire builds", async () => {
    const session = await demoSession();
    const file = path.join(session.root, 'config/shipping.json');
    assert.throws(() => JSON.parse(readFileSync(file, 'utf8')) as unknown, 'the demo ships it broken');
    const turns = await session.play(
      'Fix this problem in config/shipping.json at line 3, column 28: Value expected\n\nThe code around it:\n…',
    );
    assert.deepEqual(
      turns.map((turn) => turn.trace),
      ['demo-fix-json#1', 'demo-fix-json#2'],
    );
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      currency: 'USD',
      freeShippingFrom: 5000,
      flatRate: 499,
    });
  });

  it('answers Explain Selection offline by reading the file and saying what it is', async () => {
    const session = await demoSession();
    const turns = await session.play(
      'Explain this code from src/cart.js, lines 3–9. Do not change any file.\n\n```js\n…\n```',
    );
    assert.equal(turns[0]?.calls[0]?.name, 'read_file');
    assert.ok(turns[0]?.calls[0]?.result.ok);
    assert.match(messageOf(turns[1]), /src\/cart\.js.*line 3/s);
  });

  it('runs the failing tests, finds and reads the bug, patches it, and the tests pass', async () => {
    const session = await demoSession();
    const before = await fs.readFile(path.join(session.root, 'src/cart.js'), 'utf8');
    const turns = await session.play('The cart total is wrong. Please fix the failing test.');
    assert.deepEqual(
      turns.map((turn) => turn.trace),
      [1, 2, 3, 4, 5, 6].map((step) => `demo-fix-test#${step}`),
    );
    const [run, search, read, patch, rerun] = turns.map((turn) => {
      assert.ok(turn.calls.length <= 1);
      return turn.calls[0];
    });
    assert.equal(run?.name, 'run_task');
    assert.deepEqual(run.args, { label: 'npm: test' });
    assert.equal(run.result.ok, false);
    assert.match(run.result.output, /^Task 'npm: test' finished with exit code [1-9]\d* after/);
    assert.match(run.result.output, /\bfail 2\b/);

    assert.equal(search?.name, 'search_text');
    assert.ok(search.result.ok, search.result.output);
    assert.match(search.result.output, /src\/cart\.js.*function applyDiscount/);

    assert.equal(read?.name, 'read_file');
    assert.ok(read.result.ok, read.result.output);
    assert.match(read.result.output, /return roundCents\(amount - percent\);/);

    assert.equal(patch?.name, 'apply_patch');
    assert.ok(patch.result.ok, patch.result.output);
    assert.match(patch.result.output, /^-\s+return roundCents\(amount - percent\);$/m);
    assert.match(patch.result.output, /^\+\s+return roundCents\(amount \* \(1 - percent \/ 100\)\);$/m);

    assert.equal(rerun?.name, 'run_task');
    assert.ok(rerun.result.ok, rerun.result.output);
    assert.match(rerun.result.output, /^Task 'npm: test' finished with exit code 0 after/);
    assert.match(rerun.result.output, /\bfail 0\b/);

    assert.match(messageOf(turns[5]), /amount \* \(1 - percent \/ 100\)/);
    assert.equal(
      await fs.readFile(path.join(session.root, 'src/cart.js'), 'utf8'),
      before.replace('roundCents(amount - percent)', 'roundCents(amount * (1 - percent / 100))'),
      'only the buggy line changed',
    );
    assert.equal(
      await fs.readFile(path.join(DEMO, 'src/cart.js'), 'utf8'),
      before,
      'the demo in the repo keeps its bug',
    );
  });

  it('is found inside a longer prompt; the everyday scenarios do not take it', () => {
    const model = new ScriptedModel([DEFAULT_SCENARIOS]);
    for (const prompt of [
      'fix the failing test',
      'Read the output, run what you need and fix the failing tests',
      'find out why and fix my failing test',
    ]) {
      assert.equal(model.respond([{ role: 'user', content: prompt }]).trace, 'demo-fix-test#1', prompt);
    }
  });
});
