import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { INIT_PROMPT } from '../../../src/agent';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { useTempWorkspace } from '../support/tempWorkspace';

// The built `loopwire exec` running a slash command against the real server: what the model was sent is
// read from the server's log. `/init` sends our AGENTS.md prompt; a prompt file's run goes with its model
// and only its tools.

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' ? first.text : '';
};

interface Sent {
  model?: string;
  tools?: { name?: string }[];
  input: { role?: string; content: unknown }[];
}

describe('cli: loopwire exec runs a slash command', function () {
  this.timeout(20_000);
  const temp = useTempWorkspace({}, { prefix: 'h-slash-run' });
  const run = useExecAgainstServer(temp);
  const savedHome = process.env.HOME;
  beforeEach(() => {
    process.env.HOME = temp.path('home');
  });
  afterEach(() => {
    process.env.HOME = savedHome;
  });

  const lastUserText = (body: Sent | undefined) =>
    textOf([...(body?.input ?? [])].reverse().find((item) => item.role === 'user')?.content);

  it('/init sends the AGENTS.md prompt', async () => {
    await fs.mkdir(temp.path('sessions'), { recursive: true });
    await temp.write('ws/README.md', '# Shop\n');
    const result = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '/init']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [, first] = (await run.requests()) as Sent[];
    assert.equal(lastUserText(first), INIT_PROMPT);
    assert.match(INIT_PROMPT, /^Write an AGENTS\.md at the root of this repository/);
  });

  it('a prompt file’s run goes with its model and only its tools', async () => {
    await fs.mkdir(temp.path('sessions'), { recursive: true });
    await temp.write(
      'ws/.github/prompts/look.prompt.md',
      "---\nmodel: gpt-5.2\ntools: ['search', 'read']\n---\nFind ${input:what} and say where it is.\n",
    );
    const result = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '/look the cart']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [, first] = (await run.requests()) as Sent[];
    assert.equal(lastUserText(first), 'Find the cart and say where it is.');
    assert.equal(first?.model, 'gpt-5.2');
    assert.deepEqual(first?.tools?.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
  });

  it("a prompt file's agent: its prompt runs as that custom agent; an agent that is none is bad usage", async () => {
    await fs.mkdir(temp.path('sessions'), { recursive: true });
    await temp.write('ws/.github/agents/reviewer.agent.md', "---\ntools: ['read', 'search']\n---\nOnly review.\n");
    await temp.write('ws/.github/prompts/check.prompt.md', '---\nagent: reviewer\n---\nReview the cart.\n');
    await temp.write('ws/.github/prompts/stranger.prompt.md', '---\nagent: nobody\n---\nReview the cart.\n');
    const refused = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '/stranger']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /its agent 'nobody' is no agent here[^]*reviewer/);
    const result = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '/check']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [, first] = (await run.requests()) as Sent[];
    assert.equal(lastUserText(first), 'Review the cart.');
    assert.deepEqual(first?.tools?.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
    const sent = JSON.stringify(await run.requests());
    assert.match(sent, /# Custom agent: reviewer/);
  });

  it('/compact with --resume compacts the kept session, sends no prompt, and a second one has nothing to fold', async () => {
    await fs.mkdir(temp.path('sessions'), { recursive: true });
    await temp.write('ws/README.md', '# Shop\n');
    const first = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '/init']);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const [kept] = await fs.readdir(temp.path('sessions'));
    assert.ok(kept, 'the run kept its session');
    const file = temp.path(`sessions/${kept}`);
    const resume = (prompt: string) =>
      run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', '--resume', file, prompt]);
    const compacted = await resume('/compact');
    assert.equal(compacted.code, 0, compacted.stderr + compacted.stdout);
    assert.match(compacted.stdout + compacted.stderr, /compacted/i);
    assert.match(await fs.readFile(file, 'utf8'), /"reason":"compaction"/);
    const again = await resume('/compact');
    assert.equal(again.code, 0, again.stderr + again.stdout);
    assert.match(again.stderr, /nothing to compact/);
    // Neither sent a prompt: the server saw the first run's requests alone.
    const sent = await run.requests();
    assert.ok(sent.every((body) => !JSON.stringify(body).includes('/compact')));
  });
});
