import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { type SentRequest, textOf } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Custom agents in the real workbench (issue 50, item 3): in a repository with a custom agent
// (.github/agents/reviewer.agent.md), the composer's agent picker lists Loopwire, then the agent; picked, the
// chat's next request goes with it — the context's head (the instructions, read from the embedded backend's
// wire log, warm-up included: the first request chains from it) holds the agent's body after ours, and only
// the tools its `tools` name are offered. Its answer done, its handoff (`handoffs:` to the fixer agent) is a
// button under it; clicked, the picker switches to the fixer and the composer holds the handoff's prompt, and the
// request it sends carries the fixer's instructions on the same chain (previous_response_id). Screenshots in
// test-artifacts/workbench/custom-agents/.

const AGENT_ARTIFACTS = path.join(ARTIFACTS, 'custom-agents');

const AGENT_FILE = [
  '---',
  'description: Reviews the change and reports findings by file and line',
  "tools: ['search', 'read']",
  'handoffs:',
  '  - label: Fix the findings',
  '    agent: fixer',
  '    prompt: Fix each finding above.',
  '---',
  'You are the cart reviewer. Report each finding as FILE:LINE and change nothing.',
  '',
].join('\n');

const FIXER_FILE = ['---', 'description: Fixes what the review found', '---', 'You are the cart fixer.', ''].join('\n');

/** Every request body the embedded backend received (warm-ups included), in order. */
function bodiesIn(file: string): SentRequest[] {
  return (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; dir?: string; body?: SentRequest })
    .filter((line) => line.dir === 'in' && line.type === 'response.create')
    .flatMap((line) => (line.body ? [line.body] : []));
}

describe('Loopwire in the VS Code workbench: custom agents', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-agents-wire-'));
  const wire = path.join(dir, 'wire.jsonl');
  before(() => {
    process.env['LOOPWIRE_WIRE_LOG'] = wire;
  });
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(dir, { recursive: true, force: true });
  });
  useWorkbench((started) => (workbench = started), {
    artifacts: AGENT_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.mkdirSync(path.join(folder, '.github', 'agents'), { recursive: true });
      fs.writeFileSync(path.join(folder, '.github', 'agents', 'reviewer.agent.md'), AGENT_FILE);
      fs.writeFileSync(path.join(folder, '.github', 'agents', 'fixer.agent.md'), FIXER_FILE);
    },
  });

  it('the picker lists the agent; picked, the first request’s instructions hold its body, its tools alone offered', async () => {
    const panel = await workbench.panel();
    const select = panel.locator('.picker-agent select');
    await until(
      'the agent picker',
      async () => ((await select.locator('option').count()) > 1 ? true : undefined),
      30_000,
    );
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['Loopwire', 'fixer', 'reviewer']);
    assert.equal(await select.inputValue(), 'Loopwire', 'Loopwire by default');
    await workbench.screenshot('picker', { sidebar: true });

    await select.selectOption('reviewer');
    // The host's echo (the picker's title names what it shows): the pick is kept before the prompt goes.
    await until('the pick echoed', async () =>
      (await select.getAttribute('title'))?.endsWith(': reviewer') ? true : undefined,
    );
    const prompt = panel.locator('textarea.prompt');
    await prompt.click();
    await prompt.pressSequentially('Review the cart code.');
    await prompt.press('Enter');
    const sent = await until(
      'the request in the wire log',
      () => Promise.resolve(bodiesIn(wire).find((body) => body.generate !== false)),
      60_000,
    );
    const head = bodiesIn(wire)
      .flatMap((body) => body.input.filter((item) => item.role === 'developer'))
      .map((item) => textOf(item.content))
      .join('\n');
    assert.match(head, /# Custom agent: reviewer\n/);
    assert.match(head, /You are the cart reviewer\. Report each finding as FILE:LINE and change nothing\./);
    const tools = (sent.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : [])).sort();
    assert.deepEqual(tools, ['find_files', 'read_file', 'search_text'], 'its tools alone');
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > 0 ? true : undefined),
      60_000,
    );
    assert.equal(await select.inputValue(), 'reviewer', 'the pick stays for the next prompt');
    await workbench.screenshot('picked', { sidebar: true });
  });

  it('its answer offers its handoff: clicked, the picker is the fixer, the prompt is in the composer, sent on the same chain', async () => {
    const panel = await workbench.panel();
    const select = panel.locator('.picker-agent select');
    const button = panel.getByRole('group', { name: 'Hand off to another agent' }).getByRole('button');
    await until('the handoff button', async () => ((await button.count()) === 1 ? true : undefined), 30_000);
    assert.equal(await button.innerText(), 'Fix the findings');
    assert.equal(await button.getAttribute('title'), 'Switch to fixer with: Fix each finding above.');
    await workbench.screenshot('handoff', { sidebar: true });
    const before = bodiesIn(wire).length;
    await button.click();
    await until('the picker switched', async () => ((await select.inputValue()) === 'fixer' ? true : undefined));
    const prompt = panel.locator('textarea.prompt');
    await until('the prompt in the composer', async () =>
      (await prompt.inputValue()) === 'Fix each finding above.' ? true : undefined,
    );
    assert.equal(await button.count(), 0, 'the button went');
    await workbench.screenshot('handed-off', { sidebar: true });
    await prompt.press('Enter');
    const sent = await until(
      'the handoff’s request',
      () =>
        Promise.resolve(
          bodiesIn(wire)
            .slice(before)
            .find((body) => body.generate !== false),
        ),
      60_000,
    );
    assert.ok(sent.previous_response_id, 'on the same chain');
    const developer = sent.input.filter((item) => item.role === 'developer').map((item) => textOf(item.content));
    assert.match(developer.join('\n'), /# Custom agent: fixer\n[^]*You are the cart fixer\./);
    assert.doesNotMatch(JSON.stringify(sent.input), /Review the cart code\./, 'the conversation is not sent again');
    await until(
      'the fixer’s answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > 1 ? true : undefined),
      60_000,
    );
    assert.equal(await button.count(), 0, 'the fixer has no handoffs to offer');
    await workbench.screenshot('fixer-answered', { sidebar: true });
  });
});
