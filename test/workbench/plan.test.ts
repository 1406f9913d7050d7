import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';
import { textOf } from './wireLog';

// The plan in the real workbench (issue 37, items 1 and 2): a scripted model's update_plan shows as the
// checklist above the composer and is updated in place; then plan mode picked in the approval picker, a
// plan-mode answer (a safe search, the plan, nothing changed), and Implement, which puts the approval mode
// back to the one before plan mode and goes on in the same conversation: the next request chains from the
// plan's answer and carries a new environment item with the mode in force. The scripted model answers from a
// scenario file in the workspace (`loopwire.scenarioFiles`). Screenshots go to test-artifacts/workbench/plan/.

const PLAN_ARTIFACTS = path.join(ARTIFACTS, 'plan');

const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });

const STEPS = ['Read the failing test', 'Fix applyDiscount in src/cart.js', 'Run the tests'];

/** The plan with the first `done` steps completed and the next in progress. */
const planAt = (done: number, explanation?: string) => ({
  ...(explanation ? { explanation } : {}),
  plan: STEPS.map((step, index) => ({
    step,
    status: index < done ? 'completed' : index === done ? 'in_progress' : 'pending',
  })),
});

const SCENARIOS = {
  scenarios: [
    {
      name: 'track-plan',
      match: '^track the discount fix$',
      steps: [
        { output: [call('update_plan', planAt(0, 'The discount is applied as a fraction, not a percentage.'))] },
        { output: [call('read_file', { path: 'src/cart.js' })] },
        { output: [call('update_plan', planAt(1))] },
        { output: [{ type: 'message', text: 'Read the test and the cart; the fix is next.' }] },
      ],
    },
    {
      name: 'plan-first',
      match: '^plan the discount fix$',
      steps: [
        { output: [call('exec_command', { cmd: 'rg -n applyDiscount src' })] },
        { output: [call('update_plan', planAt(0, 'Planned in plan mode: nothing changed yet.'))] },
        {
          output: [
            {
              type: 'message',
              text: 'applyDiscount divides by 10 where it means 100.\n\n1. Read the failing test\n2. Fix applyDiscount in src/cart.js\n3. Run the tests',
            },
          ],
        },
      ],
    },
    {
      name: 'implement',
      match: '^Implement the plan\\.$',
      steps: [
        { output: [call('update_plan', planAt(2))] },
        { output: [{ type: 'message', text: 'Implementing the plan now, outside plan mode.' }] },
      ],
    },
  ],
};

/** What the embedded backend received, environment items included (wireLog.ts's reader leaves them out). */
interface Sent {
  previous_response_id?: string | null;
  input: { role?: string; content?: unknown }[];
}

describe('Loopwire in the VS Code workbench: the plan, plan mode and Implement', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const wireDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-plan-wire-'));
  const wireFile = path.join(wireDir, 'wire.jsonl');
  before(() => {
    process.env['LOOPWIRE_WIRE_LOG'] = wireFile;
  });
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(wireDir, { recursive: true, force: true });
  });

  /** The generating requests so far (warm-ups left out, unless `warmUps`). */
  const requests = (warmUps = false): Sent[] =>
    (fs.existsSync(wireFile) ? fs.readFileSync(wireFile, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; dir?: string; body?: Sent & { generate?: boolean } })
      .filter(
        (line) => line.dir === 'in' && line.type === 'response.create' && (warmUps || line.body?.generate !== false),
      )
      .flatMap((line) => (line.body ? [line.body] : []));

  useWorkbench((started) => (workbench = started), {
    artifacts: PLAN_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'plan-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['plan-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });

  async function send(panel: Frame, prompt: string): Promise<void> {
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    await panel.locator('.entry.user .bubble', { hasText: prompt }).waitFor();
  }

  const answer = (panel: Frame, text: string) =>
    panel.locator('.entry.assistant:not(.streaming)', { hasText: text }).waitFor({ timeout: 60_000 });

  const stepTexts = async (panel: Frame) =>
    (await panel.locator('.plan-dock .plan-step-text').allInnerTexts()).map((text) => text.trim());

  /** Each step's state, as its class says (`completed`, `in-progress`, `pending`). */
  const stepStates = async (panel: Frame) => {
    const steps = panel.locator('.plan-dock .plan-step');
    const classes = await Promise.all(
      Array.from({ length: await steps.count() }, (_, index) => steps.nth(index).getAttribute('class')),
    );
    return classes.map((name) => (name ?? '').replace('plan-step ', ''));
  };

  it("update_plan shows the plan dock's checklist above the composer, updated in place", async () => {
    const panel = await workbench.panel();
    await send(panel, 'track the discount fix');
    await answer(panel, 'the fix is next');
    const dock = panel.locator('.plan-dock');
    assert.equal(await dock.isVisible(), true);
    assert.deepEqual(await stepTexts(panel), STEPS);
    assert.deepEqual(await stepStates(panel), ['completed', 'in-progress', 'pending']);
    assert.match((await dock.locator('.plan-summary').innerText()).replace(/\s+/g, ' '), /Plan 1 of 3 done/);
    // The second call drew the same checklist again: the first's explanation is gone with it.
    assert.equal(await dock.locator('.plan-explanation').isVisible(), false);
    const [dockBox, composer] = await Promise.all([dock.boundingBox(), panel.locator('.composer').boundingBox()]);
    assert.ok(dockBox && composer && dockBox.y + dockBox.height <= composer.y + 1, 'above the composer');
    // Each call is a card in the conversation too.
    assert.equal(await panel.locator('.entry.tool', { hasText: 'update_plan' }).count(), 2);
    await workbench.screenshot('plan-dock', { sidebar: true });
    await workbench.screenshot('plan-dock-window');
    assert.equal(await panel.locator('.plan-implement').isVisible(), false, 'no Implement outside plan mode');
  });

  it('plan mode from the approval picker: a plan, nothing changed; Implement goes back to Ask on the same chain', async () => {
    await workbench.command('Loopwire: New Chat');
    const panel = await workbench.panel();
    await until('a new chat without the plan', async () =>
      (await panel.locator('.plan-dock').isVisible()) ? undefined : true,
    );
    const approvals = panel.getByRole('combobox', { name: 'Approvals', exact: true });
    assert.equal(await approvals.inputValue(), 'ask');
    await approvals.selectOption('plan');
    await until('plan mode in the picker', async () => ((await approvals.inputValue()) === 'plan' ? true : undefined));
    // Kept in the workspace's state, where a repository cannot write it (approvalChoice.ts), not in its settings.
    assert.doesNotMatch(settingsText(), /loopwire\.approval/);
    const cart = fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8');
    const before = requests().length;

    await send(panel, 'plan the discount fix');
    await answer(panel, 'divides by 10 where it means 100');
    // The search only read: it ran without an approval card, and nothing was written.
    assert.equal(await panel.locator('.tool-card.status-approval').count(), 0, 'no approval asked');
    assert.equal(fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8'), cart);
    const planned = requests().slice(before);
    assert.ok(planned.length >= 3, `the plan's requests: ${planned.length}`);
    // The mode is in the environment item (in the socket's warm-up or the first request of the new chat).
    assert.ok(
      requests(true).some((request) => /<approval_mode>plan<\/approval_mode>/.test(environmentOf(request))),
      'the model is told it plans',
    );
    const implement = panel.getByRole('button', { name: 'Implement' });
    await implement.waitFor({ timeout: 30_000 });
    assert.deepEqual(await stepTexts(panel), STEPS);
    await workbench.screenshot('plan-mode-answer', { sidebar: true });

    const sentBefore = requests().length;
    await implement.click();
    await answer(panel, 'Implementing the plan now, outside plan mode.');
    await until('the approval picker back on Ask', async () =>
      (await approvals.inputValue()) === 'ask' ? true : undefined,
    );
    assert.doesNotMatch(settingsText(), /loopwire\.approval/);
    const [first] = requests().slice(sentBefore);
    assert.ok(first, 'Implement sent a request');
    // On the same chain: it follows the plan's answer, and sends only what is new — the environment item with
    // the mode now in force, then Implement's prompt — never the plan-mode prompt again.
    assert.ok(first.previous_response_id, 'chained on the conversation');
    const texts = first.input.map((item) => textOf(item.content));
    assert.ok(
      !texts.some((text) => text.includes('plan the discount fix')),
      `only the new items: ${texts.join(' | ')}`,
    );
    assert.match(environmentOf(first), /<approval_mode>ask<\/approval_mode>/, 'the model is told plan mode is over');
    assert.equal(texts.at(-1), 'Implement the plan.');
    assert.deepEqual(await stepStates(panel), ['completed', 'completed', 'in-progress']);
    assert.equal(await implement.isVisible(), false, 'Implement is gone once used');
    await workbench.screenshot('plan-implemented', { sidebar: true });
    assert.deepEqual(workbench.pageErrors, []);
  });

  const settingsText = () => fs.readFileSync(path.join(workbench.workspace, '.vscode', 'settings.json'), 'utf8');
});

/** The request's `<environment_context>` item's text ('' without one). */
function environmentOf(request: Sent | undefined): string {
  const item = request?.input.find((entry) => textOf(entry.content).startsWith('<environment_context>'));
  return item ? textOf(item.content) : '';
}
