import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';
import { fingerprint, git } from '../unit/agent/worktrees/gitRepo';

// A task's worktree in the real workbench (issue 49, item 3): the demo in a git repository made by the test,
// a worktree of it made by Loopwire's core (loopwire/fix-cart) and opened as the window's folder, as New Chat
// in Worktree opens it. The chat's task (a scripted apply_patch) edits src/cart.js in the worktree; the
// panel's worktree card then lists it with its counts, a click opens the diff editor (base ↔ now), and the
// user's own checkout is byte-identical until Apply, which brings exactly that diff. Discard asks first (the
// edit is uncommitted in the worktree), then removes the worktree's folder, its branch and Loopwire's record.
// Screenshots in test-artifacts/workbench/worktrees/.

const WORKTREE_ARTIFACTS = path.join(ARTIFACTS, 'worktrees');
const ROOT = path.resolve(__dirname, '..', '..');
const NAME = 'fix-cart';
const PROMPT = 'Fix the discount in this worktree.';
const BUG = '  return roundCents(amount - percent);';
const FIXED = '  return roundCents(amount * (1 - percent / 100));';

const SCENARIOS = {
  scenarios: [
    {
      name: 'fix-in-worktree',
      match: `^${PROMPT.replace('.', '\\.')}$`,
      steps: [
        {
          output: [
            {
              type: 'custom_tool_call',
              name: 'apply_patch',
              input: [
                '*** Begin Patch',
                '*** Update File: src/cart.js',
                '@@',
                `-${BUG}`,
                `+${FIXED}`,
                '*** End Patch',
              ].join('\n'),
            },
          ],
        },
        { output: [{ type: 'message', text: 'Fixed applyDiscount in the worktree.' }] },
      ],
    },
  ],
};

/** Makes worktree NAME of `main` at `at` with Loopwire's core (the hook is synchronous: a child Node runs it). */
function makeWorktree(main: string, at: string): void {
  const core = path.join(ROOT, 'src', 'agent', 'worktrees');
  const call = `createWorktree({ folder: ${JSON.stringify(main)}, name: '${NAME}', path: ${JSON.stringify(at)} })`;
  const script = `require(${JSON.stringify(core)}).${call}.catch((e) => { console.error(e); process.exit(1); })`;
  execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT, stdio: 'inherit' });
}

describe('Loopwire in the VS Code workbench: a task in its own worktree, Apply and Discard', function () {
  this.timeout(240_000);
  let workbench: Workbench;
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-worktrees-wb-')));
  const main = path.join(scratch, 'repo');
  const scenarioFile = path.join(scratch, 'scenarios.json');
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  useWorkbench((started) => (workbench = started), {
    artifacts: WORKTREE_ARTIFACTS,
    workspace: (folder) => {
      fs.writeFileSync(scenarioFile, JSON.stringify(SCENARIOS));
      copyDemo(main);
      const settings = { 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': [scenarioFile] };
      fs.writeFileSync(path.join(main, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
      git(main, 'init', '-q', '-b', 'main');
      git(main, 'add', '-A');
      git(main, 'commit', '-q', '--no-verify', '-m', 'the demo');
      // The window's folder is the worktree: git makes it (an empty folder is taken as it is).
      fs.rmSync(folder, { recursive: true, force: true });
      makeWorktree(main, folder);
    },
    userSettings: { 'loopwire.approval': 'all' },
  });

  const cart = () => fs.readFileSync(path.join(main, 'src', 'cart.js'), 'utf8');

  it('the task’s edit stays in the worktree until Apply; the card lists it, its diff opens; Discard asks, then removes it all', async () => {
    const panel = await workbench.panel();
    const card = panel.getByRole('group', { name: `Worktree ${NAME}` });
    await card.waitFor({ timeout: 60_000 });
    assert.match(
      await card.innerText(),
      new RegExp(`This worktree: ${NAME}[\\s\\S]*loopwire/${NAME}[\\s\\S]*no changes yet`),
    );
    await workbench.screenshot('1-no-changes', { sidebar: true });
    const before = fingerprint(main);

    const box = panel.locator('textarea.prompt');
    await box.fill(PROMPT);
    await box.press('Enter');
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'Fixed applyDiscount in the worktree.' })
      .waitFor({ timeout: 90_000 });
    assert.ok(fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8').includes(FIXED));
    // The card is made again at the task's end.
    await card.locator('.worktree-state', { hasText: '1 file changed · not applied · 1 uncommitted' }).waitFor();
    assert.deepEqual(await card.locator('.worktree-file-row').allInnerTexts(), ['src/cart.js\n+1\n−1']);
    assert.deepEqual(fingerprint(main), before, 'the user’s checkout is byte-identical before Apply');
    await workbench.screenshot('2-changed', { sidebar: true });

    await card.locator('.worktree-file', { hasText: 'src/cart.js' }).click();
    const title = `src/cart.js (worktree ${NAME}: base ↔ now)`;
    const tab = workbench.page.locator('.tabs-container .tab', { hasText: title });
    await tab.first().waitFor({ timeout: 30_000 });
    await workbench.page.locator('.editor .monaco-diff-editor').first().waitFor({ timeout: 30_000 });
    await workbench.screenshot('3-diff');

    await card.getByRole('button', { name: 'Apply to workspace' }).click();
    await until('Apply brought the fix to the checkout', () => Promise.resolve(cart().includes(FIXED) || undefined));
    assert.equal(cart(), fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8'));
    const after = fingerprint(main);
    const changed = Object.keys(after).filter((file) => after[file] !== before[file]);
    assert.deepEqual(changed, ['src/cart.js'], 'Apply changed that file alone (not the index)');
    await card.locator('.worktree-state', { hasText: '1 file changed · applied · 1 uncommitted' }).waitFor();
    await workbench.screenshot('4-applied', { sidebar: true });

    await card.getByRole('button', { name: 'Discard' }).click();
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), new RegExp(`Discard worktree ${NAME}\\? It holds changes`));
    await workbench.screenshot('5-discard-asks');
    await dialog.getByRole('button', { name: 'Discard', exact: true }).click();
    await until('the worktree folder removed', () => Promise.resolve(!fs.existsSync(workbench.workspace) || undefined));
    // The record goes last (worktreeFinish.ts): once it has, so have the branch and the base ref.
    const record = path.join(main, '.git', 'loopwire', 'worktrees', `${NAME}.json`);
    await until('the record removed', () => Promise.resolve(!fs.existsSync(record) || undefined));
    assert.equal(git(main, 'branch', '--list', `loopwire/${NAME}`).trim(), '', 'the branch removed');
    assert.equal(git(main, 'for-each-ref', 'refs/loopwire/').trim(), '', 'the base ref removed');
    assert.doesNotMatch(git(main, 'worktree', 'list'), new RegExp(NAME));
    assert.ok(cart().includes(FIXED), 'what was applied stays');
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await workbench.screenshot('6-discarded', { sidebar: true });
  });
});
