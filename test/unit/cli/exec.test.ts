import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { AgentEvent } from '../../../src/agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, startServer } from '../../../src/server';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` and `loopwire demo` as a user runs them: the built bin on a copy of the demo workspace,
// offline against the embedded server, or against a server at a URL.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const loopwire = (args: string[]) => runProcess(process.execPath, [bin, ...args]);
const FIXED = 'return roundCents(amount * (1 - percent / 100));';

describe('cli: loopwire exec', () => {
  const temp = useTempWorkspace({}, { prefix: 'exec' });
  let base: string;
  let dir: string;
  let sessions: string;
  beforeEach(async () => {
    base = temp.dir;
    dir = temp.path('workspace');
    sessions = temp.path('sessions');
    await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
  });

  const exec = (...args: string[]) =>
    loopwire(['exec', '--workspace', dir, '--sessions-dir', sessions, '--approve', 'all', ...args]);

  it('performs the demo task offline: the failing test is fixed, with the diff and a summary', async () => {
    const result = await exec('Fix the failing test.');
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /▸ run_task npm: test\n {2}✗ Task 'npm: test' finished with exit code 1/);
    assert.match(
      result.stdout,
      /\n-\s+return roundCents\(amount - percent\);\n\+\s+return roundCents\(amount \* \(1 - percent \/ 100\)\);/,
    );
    assert.match(result.stdout, /✓ Task 'npm: test' finished with exit code 0/);
    // What each tool returned, under its line: the end of a task's output, the matches, the lines read.
    assert.match(
      result.stdout,
      /exit code 1 after [\d.]+ s\. \(\d+ ms\)\n {4}… \d+ earlier lines \(--verbose shows all\)\n(?: {4}.*\n){1,5} {4}# fail 2\n/,
    );
    assert.match(
      result.stdout,
      /▸ search_text .*\n.*\n {4}src\/cart\.js:11: function applyDiscount\(amount, percent\) \{\n/,
    );
    assert.match(
      result.stdout,
      /▸ read_file src\/cart\.js\n.*\n {4}'use strict';\n[^]*? {4}… \d+ more lines \(--verbose shows all\)\n {4}\(src\/cart\.js: lines 1–24 of 24\)\n/,
    );
    assert.match(
      result.stdout,
      /\ndone: the model answered · 6 turns · 5 tool calls · [\d.]+k \/ 272k tokens · [\d.]+ s · client overhead [\d.]+ ms\/turn · [\d.]+ KB sent\/turn · ws\n$/,
    );
    assert.ok((await fs.readFile(path.join(dir, 'src/cart.js'), 'utf8')).includes(FIXED));
    const [session] = await fs.readdir(sessions);
    assert.match(result.stderr, new RegExp(`session kept in .*${session}`));
  });

  it('--json prints the event stream, one valid event per line, ending with done', async () => {
    const result = await exec('--json', '--transport', 'http', 'Fix the failing test.');
    assert.equal(result.code, 0, result.stderr);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => AgentEvent.parse(JSON.parse(line)));
    assert.equal(events.at(-1)?.type, 'done');
    const metrics = events.flatMap((event) => (event.type === 'turn_finished' ? [event.metrics] : []));
    assert.equal(metrics.length, 6);
    assert.ok(metrics.every((m) => m.transport === 'http' && !m.chained));
    assert.ok(events.some((event) => event.type === 'tool_call_delta' && event.name === 'apply_patch'));
  });

  it('read-only approval: the edit is declined, nothing is written, and the task still ends', async () => {
    const result = await loopwire([
      'exec',
      '--workspace',
      dir,
      '--sessions-dir',
      sessions,
      '--approve',
      'read-only',
      'Fix the failing test.',
    ]);
    assert.match(result.stdout, /✗ declined/);
    assert.ok(!(await fs.readFile(path.join(dir, 'src/cart.js'), 'utf8')).includes(FIXED));
    assert.match(result.stdout, /\ndone: the model answered · 6 turns · 5 tool calls · 3 calls declined · /);
  });

  it('--verbose prints every line a tool returned', async () => {
    const result = await exec('--verbose', 'run the tests');
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /✗ Task 'npm: test' finished with exit code 1 after [\d.]+ s\. \(\d+ ms\)\n {4}> loopwire-demo@1\.0\.0 test\n/,
    );
    assert.match(result.stdout, /\n {4}not ok 3 - a 10% discount takes a tenth off the total\n/);
    assert.match(result.stdout, /\n {4}# fail 2\n/);
    assert.doesNotMatch(result.stdout, /--verbose shows all/);
  });

  it('without --approve and without a terminal, writes and tasks are declined, and the summary says how many', async () => {
    const result = await loopwire(['exec', '--workspace', dir, '--sessions-dir', sessions, 'run the tests']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /▸ run_task npm: test\n {2}✗ declined /);
    assert.match(result.stdout, /\ndone: the model answered · 2 turns · 1 tool call · 1 call declined · /);
  });

  it('--approve ask without a terminal on stdin: exit 2 before any socket or session, naming the other policies', async () => {
    // A listener standing in for an endpoint: exec must not even connect to it.
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.address() as net.AddressInfo;
      for (const endpoint of [`http://127.0.0.1:${port}/v1`, 'embedded']) {
        const result = await loopwire([
          'exec',
          '--workspace',
          dir,
          '--sessions-dir',
          sessions,
          '--endpoint',
          endpoint,
          '--approve',
          'ask',
          'Fix the failing test.',
        ]);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /^loopwire exec: --approve ask needs a terminal to ask on, and stdin is not one/);
        assert.match(result.stderr, /--approve all/);
        assert.match(result.stderr, /--approve read-only/);
        assert.equal(result.stdout, '');
      }
      assert.equal(connections, 0, 'no connection was made');
      await assert.rejects(fs.stat(sessions), { code: 'ENOENT' }, 'no session was kept');
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('a prompt no scenario matches: a short answer that names --endpoint and says to add --scenario FILE to loopwire exec, exit 0', async () => {
    const mine = path.join(base, 'mine.json');
    await fs.writeFile(
      mine,
      JSON.stringify({
        scenarios: [
          {
            name: 'deploy',
            match: '^deploy',
            example: 'deploy to staging',
            steps: [{ output: [{ type: 'message', text: 'ok' }] }],
          },
        ],
      }),
    );
    const result = await exec('--scenario', mine, 'write me a sonnet');
    assert.equal(result.code, 0, result.stderr);
    // The run's header, then the answer: short, no list of prompts (docs/backend.md has it), then done.
    assert.match(
      result.stdout,
      /^loopwire exec: gpt-\S+ on the embedded backend .*\nLoopwire's offline model knows only the demo's tasks: no scenario matches this prompt\. For a real model, choose an endpoint: `--endpoint URL` \(loopwire exec\)/,
    );
    assert.ok(!result.stdout.includes('deploy to staging'), result.stdout);
    assert.match(result.stdout, / write a scenario file and add --scenario FILE to loopwire exec\.\ndone: /);
  });

  it('resumes a kept session with --resume, sending its whole context first', async () => {
    assert.equal((await exec('read src/cart.js')).code, 0);
    const [session] = await fs.readdir(sessions);
    const file = path.join(sessions, session ?? '');
    const result = await loopwire([
      'exec',
      '--workspace',
      dir,
      '--approve',
      'all',
      '--json',
      '--resume',
      file,
      'list tasks',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const first = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => AgentEvent.parse(JSON.parse(line)))
      .find((event) => event.type === 'turn_finished');
    assert.ok(first?.type === 'turn_finished');
    assert.equal(first.metrics.chained, false);
    assert.equal(
      first.metrics.itemsSent,
      6,
      'the first task (its environment item, prompt, call, output, answer) and the new prompt (the environment unchanged)',
    );
  });

  describe('against a server at a URL', () => {
    let server: LoopwireServer;
    beforeEach(async () => {
      server = await startServer({ scenarios: [DEFAULT_SCENARIOS], token: 'secret', tps: 20_000 });
    });
    afterEach(() => server.close());

    it('uses OPENAI_API_KEY, and stops on a refused key with the reason and the terminal’s advice (exit 1)', async () => {
      process.env.OPENAI_API_KEY = 'secret';
      try {
        const ok = await exec('--endpoint', server.url, '--transport', 'ws', 'Fix the failing test.');
        assert.equal(ok.code, 0, ok.stderr);
        process.env.OPENAI_API_KEY = 'wrong';
        const refused = await exec('--endpoint', server.url, 'find **/*.js');
        assert.equal(refused.code, 1);
        assert.match(refused.stdout, /(^|\n)failed: The endpoint refused the credentials: .*401[^\n]*\n$/);
        // The error line says what fixes it in a terminal, and nothing of VS Code's commands.
        assert.match(
          refused.stderr,
          /(^|\n)error: The endpoint refused the credentials: .*401.*\. Set OPENAI_API_KEY to a key this endpoint accepts\b[^\n]*\n/,
        );
        assert.doesNotMatch(refused.stdout + refused.stderr, /VS Code|Set API Key…|loopwire\.endpoint/);
      } finally {
        delete process.env.OPENAI_API_KEY;
      }
    });
  });

  it('exits 2 on bad usage, naming the problem', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /no prompt/],
      [['--transport', 'carrier-pigeon', 'x'], /--transport must be ws, http or auto/],
      [['--approve', 'maybe', 'x'], /--approve must be auto, ask, all, read-only or plan/],
      [['--endpoint', 'localhost:1234', 'x'], /--endpoint must be a URL/],
      [['--max-turns', '0', 'x'], /--max-turns must be a positive integer/],
      [['--frobnicate', 'x'], /frobnicate/],
      [['one', 'two'], /one argument/],
    ];
    for (const [args, message] of cases) {
      const result = await exec(...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
      assert.match(result.stderr, /usage: loopwire exec/);
    }
    const missing = await loopwire(['exec', '--workspace', path.join(base, 'nope'), 'x']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--workspace: .*not a folder/);
  });
});

describe('cli: loopwire demo', () => {
  it('runs the demo task on a copy and leaves the repository’s demo workspace as it was', async () => {
    const before = await fs.readFile(path.join(repoRoot, 'demo/workspace/src/cart.js'), 'utf8');
    const result = await loopwire(['demo']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /✓ Task 'npm: test' finished with exit code 0/);
    assert.equal(await fs.readFile(path.join(repoRoot, 'demo/workspace/src/cart.js'), 'utf8'), before);
    const copy = /demo workspace copied to (\S+)\)/.exec(result.stderr)?.[1];
    assert.ok(copy);
    await assert.rejects(fs.stat(copy), { code: 'ENOENT' }, 'the copy is removed');
  });
});
