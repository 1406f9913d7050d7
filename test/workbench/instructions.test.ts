import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { type SentRequest, textOf, useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Steering the agent from the panel, in the real workbench (issue 30, items 2 and 3): the project's
// AGENTS.md shown above the composer and sent as its own message, and the composer's pickers writing the
// workspace's settings, which the next request goes with on the same chain. What the model was sent is read
// from the embedded backend's wire log (LOOPWIRE_WIRE_LOG, bodies included). Screenshots go to
// test-artifacts/workbench/instructions/.

const INSTRUCTIONS_ARTIFACTS = path.join(ARTIFACTS, 'instructions');
const AGENTS = 'Prices are integers of cents. Run the tests with npm test.\n';

describe('Loopwire in the VS Code workbench: project instructions and the composer’s pickers', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const requests = useWireLog();
  useWorkbench((started) => (workbench = started), {
    artifacts: INSTRUCTIONS_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'AGENTS.md'), AGENTS);
    },
  });

  /** Sends `text` and waits for its answer and for its request in the wire log. */
  async function ask(panel: Frame, text: string): Promise<SentRequest> {
    const before = requests().length;
    const answers = await panel.locator('.entry.assistant:not(.streaming)').count();
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(text);
    await prompt.press('Enter');
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > answers ? true : undefined),
      60_000,
    );
    return until('its request in the wire log', () => Promise.resolve(requests()[before]), 10_000);
  }

  const settings = () =>
    JSON.parse(fs.readFileSync(path.join(workbench.workspace, '.vscode', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;

  it('says “Using AGENTS.md” above the composer and sends it as its own message after the instructions; its link opens it', async () => {
    const panel = await workbench.panel();
    const line = panel.locator('.instructions-line');
    await until('the instructions line', async () => ((await line.isVisible()) ? true : undefined), 30_000);
    assert.equal((await line.innerText()).trim(), 'Using AGENTS.md');
    await workbench.screenshot('instructions-line', { sidebar: true });

    const first = await ask(panel, 'What are the rules of this project?');
    // The first turn chains from the socket's warm-up (which carried the developer instructions): its new
    // items are the project's message, then the prompt.
    const [project, prompt] = first.input;
    assert.equal(project?.role, 'user');
    assert.match(textOf(project?.content), /^# AGENTS\.md instructions for .*\n\n<INSTRUCTIONS>\n--- AGENTS\.md ---\n/);
    assert.ok(textOf(project?.content).includes(AGENTS.trim()));
    assert.equal(textOf(prompt?.content), 'What are the rules of this project?');

    await line.getByRole('button', { name: 'AGENTS.md' }).click();
    await workbench.page.locator('.tabs-container .tab', { hasText: 'AGENTS.md' }).waitFor({ timeout: 15_000 });
    await workbench.screenshot('instructions-opened');
  });

  it('a change to AGENTS.md takes effect at the next task, as a new message on the same chain', async () => {
    const panel = await workbench.panel();
    fs.writeFileSync(path.join(workbench.workspace, 'AGENTS.md'), 'Answer in one sentence.\n');
    const next = await ask(panel, 'And now?');
    assert.ok(next.previous_response_id, 'chained');
    assert.match(textOf(next.input[0]?.content), /these replace those given earlier[^]*Answer in one sentence\./);
    assert.equal(textOf(next.input[1]?.content), 'And now?');
  });

  it('the pickers write this workspace’s settings, and the next request goes with them, still chained', async () => {
    const panel = await workbench.panel();
    const model = panel.getByRole('combobox', { name: 'Model', exact: true });
    const effort = panel.getByRole('combobox', { name: 'Reasoning effort', exact: true });
    const approvals = panel.getByRole('combobox', { name: 'Approvals', exact: true });
    assert.equal(await model.inputValue(), 'gpt-5.5');
    assert.equal(await effort.inputValue(), 'default');
    assert.equal(await approvals.inputValue(), 'ask');
    const before = requests().at(-1);
    assert.equal(before?.model, 'gpt-5.5');
    // `default` is the model catalogue's: medium for a GPT-5 model.
    assert.equal(before?.reasoning?.effort, 'medium');

    // Other… asks for the name in VS Code's own input box.
    await model.selectOption({ label: 'Other…' });
    const input = workbench.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 15_000 });
    await input.fill('gpt-5.5-mini');
    await input.press('Enter');
    await effort.selectOption('high');
    await approvals.selectOption('read-only');
    await until(
      'the settings written for the workspace',
      () => {
        const now = settings();
        return Promise.resolve(
          now['loopwire.model'] === 'gpt-5.5-mini' && now['loopwire.reasoningEffort'] === 'high' ? true : undefined,
        );
      },
      15_000,
    );
    await until('the pickers showing them', async () =>
      (await model.inputValue()) === 'gpt-5.5-mini' &&
      (await effort.inputValue()) === 'high' &&
      (await approvals.inputValue()) === 'read-only'
        ? true
        : undefined,
    );
    // The approval mode is kept in the workspace's state, where a repository cannot write it (approvalChoice.ts).
    assert.equal(settings()['loopwire.approval'], undefined, 'no approval mode in the workspace settings');
    await workbench.screenshot('pickers-changed', { sidebar: true });

    const next = await ask(panel, 'Which model answers now?');
    assert.equal(next.model, 'gpt-5.5-mini');
    assert.equal(next.reasoning?.effort, 'high');
    assert.ok(next.previous_response_id, 'the chain goes on: a new model or effort drops nothing');
    assert.deepEqual(
      next.input.map((item) => textOf(item.content)),
      ['Which model answers now?'],
      'only the new prompt was sent',
    );

    // A change made in settings shows in the pickers too.
    fs.writeFileSync(
      path.join(workbench.workspace, '.vscode', 'settings.json'),
      `${JSON.stringify({ ...settings(), 'loopwire.reasoningEffort': 'low' }, null, 2)}\n`,
    );
    await until('the effort picker following settings.json', async () =>
      (await effort.inputValue()) === 'low' ? true : undefined,
    );
    assert.deepEqual(workbench.pageErrors, []);
  });
});
