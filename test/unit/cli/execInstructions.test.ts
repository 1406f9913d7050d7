import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` on a project with instructions for agents: the built bin against the real server over a
// real socket, whose wire log (with bodies) shows what the model was sent.

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? textPart(content[0]) : '';

describe('cli: loopwire exec reads the project’s AGENTS.md', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-agents' });
  const run = useExecAgainstServer(temp);

  it('sends them as their own message after the developer instructions, and says which files it used', async () => {
    await fs.cp(path.join(repoRoot, 'demo/workspace'), temp.path('repo/app'), { recursive: true });
    await temp.write('repo/.git/HEAD', 'ref: refs/heads/main\n');
    await temp.write('repo/AGENTS.md', 'Run the tests with npm test.\n');
    await temp.write('repo/app/AGENTS.md', 'Keep prices in cents.\n');
    // An empty home folder for the bin: the developer's own skills (~/.claude/skills…) would add a message.
    await fs.mkdir(temp.path('home'));
    const home = process.env.HOME;
    process.env.HOME = temp.path('home');
    const result = await run
      .exec(['--workspace', temp.path('repo/app'), '--transport', 'ws', '--approve', 'all', 'Fix the failing test.'])
      .finally(() => (process.env.HOME = home));
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stderr, /^\(using \.\.\/AGENTS\.md, AGENTS\.md\)$/m);
    const requests = await run.requests();
    const [warmup, first, ...rest] = requests;
    // The warm-up carries the developer instructions; the first turn chains from it and adds the project's
    // message and the environment item before the prompt: the model reads developer, AGENTS.md, environment,
    // prompt.
    assert.equal(warmup?.generate, false);
    assert.deepEqual(
      warmup?.input.map((item) => item.role),
      ['developer'],
    );
    assert.match(textOf(warmup?.input[0]?.content), /^You are Loopwire, a coding agent\./);
    assert.ok(first?.previous_response_id, 'the first turn chains from the warm-up');
    const [project, environment, prompt] = first?.input ?? [];
    assert.match(textOf(environment?.content), /^<environment_context>\n {2}<cwd>.*\/repo\/app<\/cwd>/);
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
