import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { type SentRequest, textOf, useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Rewind in the real workbench (issue 30, items 4 and 5): Restore under a sent prompt puts back the files the
// agent wrote since, and leaves a file the user made alone; Edit on an earlier prompt sends it again as a
// fork, after asking what happens to the files written since, chained from the response before that prompt,
// and the old branch stays in History. What the model was sent is read from the embedded backend's wire log
// (LOOPWIRE_WIRE_LOG, bodies included). Screenshots go to test-artifacts/workbench/checkpoints/.

const CHECKPOINT_ARTIFACTS = path.join(ARTIFACTS, 'checkpoints');
const FIRST = 'Write the first note.';
const SECOND = 'Write the second note.';
const AGAIN = 'Write the first note, again.';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** The model's side: each prompt's edits, then a sentence. */
const SCENARIOS = {
  scenarios: [
    {
      name: 'first-note',
      match: `^${FIRST.replace('.', '\\.')}$`,
      steps: [
        {
          output: [
            { type: 'custom_tool_call', name: 'apply_patch', input: patch('*** Add File: notes.txt', '+first') },
          ],
        },
        { output: [{ type: 'message', text: 'Wrote the first note.' }] },
      ],
    },
    {
      name: 'second-note',
      match: `^${SECOND.replace('.', '\\.')}$`,
      steps: [
        {
          output: [
            {
              type: 'custom_tool_call',
              name: 'apply_patch',
              input: patch('*** Update File: notes.txt', '@@', '-first', '+second', '*** Add File: two.txt', '+two'),
            },
          ],
        },
        { output: [{ type: 'message', text: 'Wrote the second note.' }] },
      ],
    },
    {
      name: 'first-note-again',
      match: `^${AGAIN.replace(/[.,]/g, '\\$&')}$`,
      steps: [{ output: [{ type: 'message', text: 'Nothing to write this time.' }] }],
    },
  ],
};

describe('Loopwire in the VS Code workbench: Restore and Edit and resend', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-checkpoints-'));
  const scenarioFile = path.join(scratch, 'scenarios.json');
  const file = (name: string) => path.join(workbench.workspace, name);
  const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : undefined);

  const requests = useWireLog();
  before(() => fs.writeFileSync(scenarioFile, JSON.stringify(SCENARIOS)));
  useWorkbench((started) => (workbench = started), {
    artifacts: CHECKPOINT_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      const settings = path.join(folder, '.vscode', 'settings.json');
      const current = fs.existsSync(settings) ? (JSON.parse(fs.readFileSync(settings, 'utf8')) as object) : {};
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(settings, JSON.stringify({ ...current, 'loopwire.scenarioFiles': [scenarioFile] }, null, 2));
    },
    // The user's own setting: a workspace's `loopwire.approval` may make the mode stricter, never looser.
    userSettings: { 'loopwire.approval': 'all' },
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const answers = (panel: Frame) => panel.locator('.entry.assistant:not(.streaming)');

  async function ask(panel: Frame, text: string, answer: string): Promise<void> {
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(text);
    await prompt.press('Enter');
    await answers(panel).filter({ hasText: answer }).first().waitFor({ timeout: 60_000 });
  }

  /** The Edit or Restore button of the sent prompt that reads `text`. */
  const promptButton = (panel: Frame, text: string, name: 'Edit' | 'Restore'): Locator =>
    panel
      .locator('.entry.user', { has: panel.locator('.bubble', { hasText: text }) })
      .locator('.prompt-actions button', { hasText: name });

  let firstRequest: SentRequest | undefined;

  it('Restore under a prompt puts back what the agent wrote since, and leaves the user’s own file alone', async () => {
    const panel = await workbench.panel();
    await ask(panel, FIRST, 'Wrote the first note.');
    assert.equal(read('notes.txt'), 'first\n');
    firstRequest = requests().find((request) => request.input.some((item) => textOf(item.content) === FIRST));
    assert.ok(firstRequest, 'the first prompt’s request is in the wire log');

    // The user makes a file of their own between the two prompts.
    fs.writeFileSync(file('mine.txt'), 'the user’s\n');
    await ask(panel, SECOND, 'Wrote the second note.');
    assert.equal(read('notes.txt'), 'second\n');
    assert.equal(read('two.txt'), 'two\n');
    await workbench.screenshot('before-restore', { sidebar: true });

    await promptButton(panel, SECOND, 'Restore').click();
    const notice = panel.locator('.entry', { hasText: 'Restored 2 files' });
    await notice.waitFor({ timeout: 15_000 });
    await until('the files back as they were before the second prompt', () =>
      Promise.resolve(read('notes.txt') === 'first\n' && read('two.txt') === undefined ? true : undefined),
    );
    assert.equal(read('mine.txt'), 'the user’s\n', 'a file the user made is not the agent’s to undo');
    await workbench.screenshot('restored', { sidebar: true });
  });

  it('Edit and resend forks at an earlier prompt: asked about the files, chained from the response before it, the old branch in History', async () => {
    const panel = await workbench.panel();
    const before = requests().length;
    await promptButton(panel, FIRST, 'Edit').click();
    const box = panel.locator('textarea.prompt-edit');
    await box.fill(AGAIN);
    await workbench.screenshot('editing', { sidebar: true });
    await box.press('Enter');

    // notes.txt was written after the first prompt: the page asks what becomes of it first.
    const restoreAndSend = panel.getByRole('button', { name: 'Restore files and send' });
    await restoreAndSend.waitFor({ timeout: 15_000 });
    await workbench.screenshot('resend-asks', { sidebar: true });
    await restoreAndSend.click();
    await answers(panel).filter({ hasText: 'Nothing to write this time.' }).first().waitFor({ timeout: 60_000 });
    await workbench.screenshot('forked', { sidebar: true });

    assert.equal(read('notes.txt'), undefined, 'the note the agent created after the first prompt is gone');
    assert.equal(read('mine.txt'), 'the user’s\n');
    // The fork shows the edited prompt, and nothing of the old branch after it.
    assert.equal(await panel.locator('.entry.user .bubble', { hasText: AGAIN }).count(), 1);
    assert.equal(await panel.locator('.entry.user .bubble', { hasText: SECOND }).count(), 0);

    const resent = await until('the resent prompt’s request', () =>
      Promise.resolve(
        requests()
          .slice(before)
          .find((request) => request.input.some((item) => textOf(item.content) === AGAIN)),
      ),
    );
    const sent = resent.input.map((item) => textOf(item.content));
    assert.ok(
      !sent.includes(FIRST) && !sent.includes(SECOND),
      `nothing of the old branch is sent: ${sent.join(' | ')}`,
    );
    assert.ok(firstRequest?.previous_response_id, 'the first prompt chained from the socket’s warm-up');
    assert.equal(
      resent.previous_response_id,
      firstRequest.previous_response_id,
      'the fork chains from the response before the edited prompt, as the first prompt did',
    );

    // The old branch is a past chat.
    await panel.getByRole('button', { name: 'History', exact: true }).click();
    const past = panel.locator('.history li button', { hasText: FIRST });
    await past.first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('history-old-branch', { sidebar: true });
    assert.deepEqual(workbench.pageErrors, []);
  });
});
