import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { AnyInputItem } from '../../../src/protocol';
import { DEFAULT_SCENARIOS } from '../../../src/server';
import { ScriptedModel } from '../../../src/server/scriptedModel';
import { demoSession, messageOf } from './support/demoSession';

// The default scenarios' everyday prompts (find files, search, read, replace text, run or list the tasks),
// each played on a copy of demo/workspace through the real tools (support/demoSession.ts): the call the
// model makes, what the tool returns, and the message after it.

describe('default scenarios: everyday prompts on demo/workspace', function () {
  this.timeout(60_000);

  const cases: {
    prompt: string;
    trace: string;
    tool: string;
    args: unknown;
    ok?: boolean;
    output: RegExp[];
    says: RegExp;
  }[] = [
    {
      prompt: 'find **/*.js',
      trace: 'find-files',
      tool: 'find_files',
      args: { pattern: '**/*.js' },
      output: [/^src\/cart\.js$/m, /^src\/money\.js$/m, /^test\/cart\.test\.js$/m],
      says: /`\*\*\/\*\.js`/,
    },
    {
      prompt: 'Find files named "*.json"',
      trace: 'find-files',
      tool: 'find_files',
      args: { pattern: '*.json' },
      output: [/^package\.json$/m],
      says: /`\*\.json`/,
    },
    {
      prompt: 'search for discount',
      trace: 'search-text',
      tool: 'search_text',
      args: { query: 'discount' },
      output: [/src\/cart\.js/, /test\/cart\.test\.js/],
      says: /"discount"/,
    },
    {
      prompt: `search the code for 'applyDiscount(999'`,
      trace: 'search-text',
      tool: 'search_text',
      args: { query: 'applyDiscount(999' },
      output: [/test\/cart\.test\.js.*applyDiscount\(999, 15\)/],
      says: /"applyDiscount\(999"/,
    },
    {
      prompt: 'read src/cart.js',
      trace: 'read-file',
      tool: 'read_file',
      args: { path: 'src/cart.js' },
      output: [/function applyDiscount\(amount, percent\)/],
      says: /`src\/cart\.js`/,
    },
    {
      prompt: '  show me `src/money.js`\n',
      trace: 'read-file',
      tool: 'read_file',
      args: { path: 'src/money.js' },
      output: [/function formatPrice/],
      says: /`src\/money\.js`/,
    },
    {
      prompt: String.raw`replace "Ask Loopwire" with "Ask \"Loopwire\" \o/" in README.md`,
      trace: 'replace-text',
      tool: 'edit_file',
      args: {
        path: 'README.md',
        edits: [{ old_string: 'Ask Loopwire', new_string: String.raw`Ask \"Loopwire\" \o/`, replace_all: true }],
      },
      output: [/^\+.*Ask \\"Loopwire\\" \\o\/ to "fix the failing test"/m],
      says: /every "Ask Loopwire" with "Ask \\"Loopwire\\" \\o\/" in README\.md/,
    },
    {
      prompt: 'run the task npm: test',
      trace: 'run-task',
      tool: 'run_task',
      args: { label: 'npm: test' },
      ok: false,
      output: [/^Task 'npm: test' finished with exit code 1 after/],
      says: /'npm: test'/,
    },
    {
      prompt: 'run test',
      trace: 'run-task',
      tool: 'run_task',
      args: { label: 'test' },
      ok: false,
      output: [/^Task 'test' finished with exit code 1 after/, /\bfail 2\b/],
      says: /'test'/,
    },
    {
      prompt: 'Run the tests',
      trace: 'run-tests',
      tool: 'run_task',
      args: { label: 'npm: test' },
      ok: false,
      output: [/^Task 'npm: test' finished with exit code 1 after/],
      says: /npm test/,
    },
    {
      prompt: 'list tasks',
      trace: 'list-tasks',
      tool: 'list_tasks',
      args: {},
      output: [/^test — npm test/m, /^npm: test — npm run test: node --test/m],
      says: /run the task/,
    },
    {
      prompt: 'show me the tasks',
      trace: 'list-tasks',
      tool: 'list_tasks',
      args: {},
      output: [/npm: test/],
      says: /run the task/,
    },
  ];

  for (const { prompt, trace, tool, args, ok = true, output, says } of cases) {
    it(`${JSON.stringify(prompt)}: ${tool} ${JSON.stringify(args)}, then a message`, async () => {
      const session = await demoSession();
      const turns = await session.play(prompt);
      assert.deepEqual(
        turns.map((turn) => turn.trace),
        [`${trace}#1`, `${trace}#2`],
      );
      const [call] = turns[0]?.calls ?? [];
      assert.equal(turns[0]?.calls.length, 1);
      assert.equal(call?.name, tool);
      assert.deepEqual(call.args, args);
      assert.equal(call.result.ok, ok, call.result.output);
      for (const pattern of output) assert.match(call.result.output, pattern);
      assert.match(messageOf(turns[1]), says);
    });
  }

  it('the replacement lands on disk, quotes and backslashes as typed', async () => {
    const session = await demoSession();
    await session.play(String.raw`replace 'Ask Loopwire' with 'Ask "Loopwire" \o/' in README.md`);
    const text = await fs.readFile(path.join(session.root, 'README.md'), 'utf8');
    assert.match(text, /^One test fails: the discount is wrong\. Ask "Loopwire" \\o\/ to "fix the failing test"\.$/m);
  });

  it('matches the prompt on its own line of a longer user message, and nothing else', () => {
    const model = new ScriptedModel([DEFAULT_SCENARIOS]);
    const parts: AnyInputItem = {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: '<environment>cwd: /work/demo</environment>' },
        { type: 'input_text', text: 'read src/cart.js' },
      ],
    };
    assert.equal(model.respond([parts]).trace, 'read-file#1');
    for (const prompt of ['what does this project do?', 'please read src/cart.js and tell me', 'findings']) {
      assert.equal(model.respond([{ role: 'user', content: prompt }]).trace, 'no match', prompt);
    }
  });
});
