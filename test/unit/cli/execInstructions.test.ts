import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_INSTRUCTIONS } from '../../../src/agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, startServer } from '../../../src/server';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` on a project with instructions for agents: the built bin against the real server over a
// real socket, whose wire log (with bodies) shows what the model was sent.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const TOKEN = 'sk-instructions-test';

interface LoggedRequest {
  type: string;
  body?: { generate?: boolean; input: { role?: string; content: unknown }[]; previous_response_id?: string };
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? textPart(content[0]) : '';

describe('cli: loopwire exec reads the project’s AGENTS.md', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-agents' });
  let server: LoopwireServer;
  let log: string;
  beforeEach(async () => {
    log = temp.path('wire.jsonl');
    server = await startServer({ token: TOKEN, scenarios: [DEFAULT_SCENARIOS], logFile: log, logBodies: true });
  });
  afterEach(() => server.close());

  it('sends them as their own message after the developer instructions, and says which files it used', async () => {
    await fs.cp(path.join(repoRoot, 'demo/workspace'), temp.path('repo/app'), { recursive: true });
    await temp.write('repo/.git/HEAD', 'ref: refs/heads/main\n');
    await temp.write('repo/AGENTS.md', 'Run the tests with npm test.\n');
    await temp.write('repo/app/AGENTS.md', 'Keep prices in cents.\n');
    const result = await runProcess(
      process.execPath,
      [
        bin,
        'exec',
        '--workspace',
        temp.path('repo/app'),
        '--sessions-dir',
        temp.path('sessions'),
        '--endpoint',
        server.url,
        '--transport',
        'ws',
        '--approve',
        'all',
        'Fix the failing test.',
      ],
      '',
      { ...process.env, OPENAI_API_KEY: TOKEN },
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stderr, /^\(using \.\.\/AGENTS\.md, AGENTS\.md\)$/m);
    await server.close();
    const requests = (await fs.readFile(log, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LoggedRequest)
      .filter((line) => line.type === 'response.create');
    const [warmup, first, ...rest] = requests.map((line) => line.body);
    // The warm-up carries the developer instructions; the first turn chains from it and adds the project's
    // message before the prompt: the context the model reads is developer, AGENTS.md, prompt.
    assert.equal(warmup?.generate, false);
    assert.deepEqual(
      warmup?.input.map((item) => [item.role, textOf(item.content)]),
      [['developer', DEFAULT_INSTRUCTIONS]],
    );
    assert.ok(first?.previous_response_id, 'the first turn chains from the warm-up');
    const [project, prompt] = first?.input ?? [];
    assert.equal(project?.role, 'user');
    assert.match(
      textOf(project?.content),
      /^# AGENTS\.md instructions for .*\/repo\/app\n\n<INSTRUCTIONS>\n--- \.\.\/AGENTS\.md ---\nRun the tests with npm test\.\n\n--- AGENTS\.md ---\nKeep prices in cents\.\n<\/INSTRUCTIONS>$/,
    );
    assert.equal(textOf(prompt?.content), 'Fix the failing test.');
    assert.ok(rest.length >= 4, 'the task took several turns');
    for (const body of rest)
      assert.ok(
        body?.input.every((item) => !textOf(item.content).startsWith('# AGENTS.md')),
        'later turns inherit them from the chain',
      );
  });
});

/** The text of a content part, or '' for a part without one. */
function textPart(part: unknown): string {
  const text = (part as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}
