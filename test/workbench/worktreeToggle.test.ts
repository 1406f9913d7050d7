import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { discardWorktree, listWorktrees } from '../../src/agent/worktrees';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';
import { fingerprint, git } from '../unit/agent/worktrees/gitRepo';

// The composer's "In a new worktree" toggle in the real workbench (issue 49, item 3): the demo in a git
// repository made by the test; the toggle on, a prompt sent goes to New Chat in Worktree (its name asked, then
// whether to carry the changes), the worktree is made and opened in a new window, which Loopwire starts in by
// itself, shows its chat and runs the prompt there: the task's edit is in the worktree, its card says so, and
// the user's checkout is byte-identical. The repository's window lists the new worktree in its own card.
// The suite's code-server is its own (a LOOPWIRE_ variable of its own), with XDG_STATE_HOME in the test's
// folder, where the worktree and the handed-over prompt go. Screenshots in test-artifacts/workbench/worktrees/.

const TOGGLE_ARTIFACTS = path.join(ARTIFACTS, 'worktrees');
const NAME = 'from-toggle';
const PROMPT = 'Fix the discount in this worktree.';
const BUG = '  return roundCents(amount - percent);';
const FIXED = '  return roundCents(amount * (1 - percent / 100));';
const PATCH = ['*** Begin Patch', '*** Update File: src/cart.js', '@@', `-${BUG}`, `+${FIXED}`, '*** End Patch'];
const SCENARIOS = {
  scenarios: [
    {
      name: 'fix-in-worktree',
      match: `^${PROMPT.replace('.', '\\.')}$`,
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH.join('\n') }] },
        { output: [{ type: 'message', text: 'Fixed applyDiscount in the worktree.' }] },
      ],
    },
  ],
};

/** The chat panel's frame of `page` (the webview with the composer). */
const panelOf = (page: Page): Promise<Frame> =>
  until(
    'the Loopwire panel in the new window',
    async () => {
      for (const frame of page.frames())
        if (
          !frame.isDetached() &&
          (await frame
            .locator('.composer textarea.prompt')
            .count()
            .catch(() => 0)) > 0
        )
          return frame;
      return undefined;
    },
    120_000,
  );

describe('Loopwire in the VS Code workbench: the composer’s “In a new worktree”', function () {
  this.timeout(300_000);
  let workbench: Workbench;
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-worktree-toggle-')));
  const scenarioFile = path.join(scratch, 'scenarios.json');
  const saved = { state: process.env['XDG_STATE_HOME'], own: process.env['LOOPWIRE_WORKTREE_TOGGLE'] };
  before(() => {
    process.env['XDG_STATE_HOME'] = path.join(scratch, 'state');
    process.env['LOOPWIRE_WORKTREE_TOGGLE'] = scratch;
  });
  after(async () => {
    for (const [key, value] of [
      ['XDG_STATE_HOME', saved.state],
      ['LOOPWIRE_WORKTREE_TOGGLE', saved.own],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    if (workbench && fs.existsSync(workbench.workspace))
      for (const status of await listWorktrees(workbench.workspace).catch(() => []))
        await discardWorktree(workbench.workspace, status.record.name, true).catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  useWorkbench((started) => (workbench = started), {
    artifacts: TOGGLE_ARTIFACTS,
    workspace: (folder) => {
      fs.writeFileSync(scenarioFile, JSON.stringify(SCENARIOS));
      copyDemo(folder);
      const settings = { 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': [scenarioFile] };
      fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
      git(folder, 'init', '-q', '-b', 'main');
      git(folder, 'add', '-A');
      git(folder, 'commit', '-q', '--no-verify', '-m', 'the demo');
    },
    userSettings: { 'loopwire.approval': 'all' },
  });

  it('a prompt sent with the toggle on runs as the first task of a new window on a new worktree', async () => {
    const { page } = workbench;
    const panel = await workbench.panel();
    const before = fingerprint(workbench.workspace);
    await panel.getByRole('button', { name: 'In a new worktree' }).click();
    const box = panel.locator('textarea.prompt');
    await box.fill(PROMPT);
    await workbench.screenshot('toggle-1-on', { sidebar: true });
    await box.press('Enter');

    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(NAME);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start from HEAD' }).first().waitFor();
    await workbench.screenshot('toggle-2-carry-asked');
    const opened = page.context().waitForEvent('page', { timeout: 120_000 });
    await page.keyboard.press('Enter');
    const next = await opened;
    await next.locator('.monaco-workbench').waitFor({ timeout: 120_000 });

    // The new window starts Loopwire by itself and runs the prompt in its chat.
    const there = await panelOf(next);
    await there
      .locator('.entry.assistant:not(.streaming)', { hasText: 'Fixed applyDiscount in the worktree.' })
      .waitFor({ timeout: 120_000 });
    assert.equal(await there.locator('.entry.user .bubble', { hasText: PROMPT }).count(), 1);
    const card = there.getByRole('group', { name: `Worktree ${NAME}` });
    await card.locator('.worktree-state', { hasText: '1 file changed · not applied' }).waitFor({ timeout: 60_000 });
    const worktree = path.join(scratch, 'state', 'loopwire', 'worktrees', `demo-workspace-${NAME}`);
    assert.ok(fs.readFileSync(path.join(worktree, 'src', 'cart.js'), 'utf8').includes(FIXED));
    await next.locator('.part.sidebar').screenshot({ path: path.join(TOGGLE_ARTIFACTS, 'toggle-3-new-window.png') });
    assert.deepEqual(fingerprint(workbench.workspace), before, 'the user’s checkout is byte-identical');
    assert.equal(
      git(workbench.workspace, 'branch', '--list', '--format=%(refname:short)', `loopwire/${NAME}`).trim(),
      `loopwire/${NAME}`,
    );

    // The repository's window: the toggle is off again, the prompt box empty, and its card lists the worktree.
    assert.equal(await panel.getByRole('button', { name: 'In a new worktree' }).getAttribute('aria-pressed'), 'false');
    assert.equal(await box.inputValue(), '');
    await panel.getByRole('group', { name: `Worktree ${NAME}` }).waitFor({ timeout: 30_000 });
    await workbench.screenshot('toggle-4-repository-window', { sidebar: true });
    await next.close();
  });

  it('a worktree whose folder was removed by hand is said to be gone in the card, and Discard forgets it', async () => {
    const worktree = path.join(scratch, 'state', 'loopwire', 'worktrees', `demo-workspace-${NAME}`);
    fs.rmSync(worktree, { recursive: true, force: true });
    // The card is made again when the page asks for it: a reloaded window's does.
    await workbench.reload();
    const panel = await workbench.panel();
    const card = panel.getByRole('group', { name: `Worktree ${NAME}` });
    await card.locator('.worktree-state', { hasText: 'its folder has gone' }).waitFor({ timeout: 60_000 });
    assert.deepEqual(await card.getByRole('button').allInnerTexts(), ['Discard']);
    await workbench.screenshot('toggle-5-gone', { sidebar: true });
    await card.getByRole('button', { name: 'Discard' }).click();
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(git(workbench.workspace, 'branch', '--list', `loopwire/${NAME}`).trim(), '');
    assert.deepEqual(await listWorktrees(workbench.workspace), []);
  });
});
