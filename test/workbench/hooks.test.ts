import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// A workspace's hooks in the real workbench (issue 50, item 4; src/extension/trust/hookConsent.ts): the demo
// with .github/hooks/guard.json, a PreToolUse hook on Bash (our exec_command) that leaves a marker and denies
// with a reason. The first task asks about the file in a modal, and nothing of it has run before Run Them;
// after it, the command's card says the hook denied it, with its reason, and the marker shows the hook ran.
// Screenshots in test-artifacts/workbench/hooks/.

const HOOKS_ARTIFACTS = path.join(ARTIFACTS, 'hooks');
const PROMPT = 'Run the checks.';
const REASON = 'checks run in CI only';

const SCENARIOS = {
  scenarios: [
    {
      name: 'checks',
      match: '^Run the checks\\.$',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo checked > checked.txt' } }] },
        { output: [{ type: 'message', text: 'The hook refused the checks.' }] },
      ],
    },
  ],
};

const GUARD = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: `touch HOOK-RAN; echo '${REASON}' >&2; exit 2` }],
      },
    ],
  },
};

describe('Loopwire in the VS Code workbench: a workspace’s hooks run only after a yes', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-hooks-'));
  const scenarioFile = path.join(scratch, 'scenarios.json');
  before(() => fs.writeFileSync(scenarioFile, JSON.stringify(SCENARIOS)));
  useWorkbench((started) => (workbench = started), {
    artifacts: HOOKS_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.mkdirSync(path.join(folder, '.github', 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(folder, '.github', 'hooks', 'guard.json'), `${JSON.stringify(GUARD, null, 2)}\n`);
      const settings = path.join(folder, '.vscode', 'settings.json');
      const current = JSON.parse(fs.readFileSync(settings, 'utf8')) as object;
      fs.writeFileSync(
        settings,
        `${JSON.stringify({ ...current, 'loopwire.scenarioFiles': [scenarioFile] }, null, 2)}\n`,
      );
    },
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const dialog = () => workbench.page.locator('.monaco-dialog-box');
  const marker = () => path.join(workbench.workspace, 'HOOK-RAN');

  it('asks about .github/hooks/guard.json first; after Run Them the card says the hook denied the command', async () => {
    const panel = await workbench.panel();
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(PROMPT);
    await prompt.press('Enter');
    await dialog().waitFor({ timeout: 60_000 });
    assert.equal(
      (await dialog().locator('.dialog-message-text').innerText()).trim(),
      'Run the hooks that .github/hooks/guard.json sets up?',
    );
    assert.match(await dialog().innerText(), /PreToolUse \(Bash\): touch HOOK-RAN/);
    assert.equal(fs.existsSync(marker()), false, 'nothing of the file ran before the yes');
    await workbench.screenshot('hooks-question');
    await dialog().getByRole('button', { name: 'Run Them', exact: true }).click();

    const line = panel.locator('.tool-card .tool-hook');
    await line.waitFor({ timeout: 60_000 });
    assert.equal(await line.innerText(), `PreToolUse hook denied it: ${REASON}`);
    assert.equal(fs.existsSync(marker()), true, 'the hook ran after the yes');
    assert.equal(fs.existsSync(path.join(workbench.workspace, 'checked.txt')), false, 'the denied command did not');
    await until('the answer', async () =>
      (await panel.locator('.entry.assistant:not(.streaming)').count()) > 0 ? true : undefined,
    );
    await workbench.screenshot('hooks-denied', { sidebar: true });
  });
});
