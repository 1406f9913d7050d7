import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { textOf, useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Slash commands in the real workbench (issue 50, item 2): in a repository with a prompt file
// (.github/prompts/x.prompt.md), `/` in the panel's prompt box lists the built-ins and the prompt file with
// their descriptions, typing filters, Enter puts `/x ` in the box, and the prompt sent as `/x the cart total`
// reaches the model as the file's body with its `${input:topic}` filled (the embedded backend's wire log),
// with the prompt file's tools alone offered; the panel shows what was typed; `/compact` then folds the
// conversation, and a line in the chat says what it folded. Screenshots in
// test-artifacts/workbench/slash-menu/.

const SLASH_ARTIFACTS = path.join(ARTIFACTS, 'slash-menu');

const PROMPT_FILE = [
  '---',
  'description: Explain a part of the code in one paragraph',
  'argument-hint: topic',
  'tools: [codebase]',
  '---',
  'Explain ${input:topic} in one paragraph, naming the files it lives in.',
  '',
].join('\n');

describe('Loopwire in the VS Code workbench: slash commands', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  const requests = useWireLog();
  useWorkbench((started) => (workbench = started), {
    artifacts: SLASH_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.mkdirSync(path.join(folder, '.github', 'prompts'), { recursive: true });
      fs.writeFileSync(path.join(folder, '.github', 'prompts', 'x.prompt.md'), PROMPT_FILE);
    },
  });

  it('/ lists the commands and the prompt file; /x arg sends its body filled, with its tools', async () => {
    const panel = await workbench.panel();
    const prompt = panel.locator('textarea.prompt');
    await prompt.click();
    await prompt.pressSequentially('/');
    const file = panel.locator('.slash-menu [role="option"][data-name="x"]');
    await file.waitFor({ timeout: 30_000 });
    const options = await panel.locator('.slash-menu [role="option"]').all();
    const names = await Promise.all(options.map((option) => option.getAttribute('data-name')));
    assert.deepEqual(names.slice(0, 6), ['new', 'compact', 'plan', 'review', 'init', 'skills']);
    assert.ok(names.includes('x'), `the prompt file is listed: ${names.join(', ')}`);
    assert.equal(
      (await file.innerText()).replace(/\u00a0/g, ' '),
      '/x\ntopic\nExplain a part of the code in one paragraph',
    );
    await workbench.screenshot('slash-menu', { sidebar: true });

    await prompt.pressSequentially('x');
    await until('the menu filtered', async () =>
      (await panel.locator('.slash-menu [role="option"]').count()) <= 2 ? true : undefined,
    );
    assert.equal(await panel.locator('.slash-menu [aria-selected="true"]').getAttribute('data-name'), 'x');
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/x ');
    await prompt.pressSequentially('the cart total');
    await workbench.screenshot('slash-typed', { sidebar: true });

    const before = requests().length;
    await prompt.press('Enter');
    const sent = await until('the request in the wire log', () => Promise.resolve(requests()[before]), 60_000);
    const users = sent.input.filter((item) => item.role === 'user').map((item) => textOf(item.content));
    assert.ok(
      users.includes('Explain the cart total in one paragraph, naming the files it lives in.'),
      `the filled body is the prompt: ${JSON.stringify(users)}`,
    );
    const tools = (sent.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : []));
    assert.ok(!tools.includes('apply_patch') && tools.length > 0, `the prompt file's tools alone: ${tools.join(', ')}`);
    await until(
      'the answer',
      async () => ((await panel.locator('.entry.assistant:not(.streaming)').count()) > 0 ? true : undefined),
      60_000,
    );
    assert.equal(await panel.locator('.entry.user').last().innerText(), '/x the cart total');
    await workbench.screenshot('slash-sent', { sidebar: true });

    // /compact folds the conversation so far: a line says what, and nothing goes to the model as a prompt.
    const asked = requests().length;
    await prompt.pressSequentially('/compact');
    await prompt.press('Enter'); // the menu's pick: `/compact ` in the box
    await prompt.press('Enter');
    const line = panel.locator('.entry.notice .notice-text', { hasText: 'Conversation compacted' });
    await line.waitFor({ timeout: 60_000 });
    assert.match(
      await line.innerText(),
      /^Conversation compacted: \d+ items .* tokens\)\. The next prompt goes on from it\.$/,
    );
    assert.equal(requests().length, asked, 'no request was a prompt');
    await workbench.screenshot('slash-compact', { sidebar: true });
  });
});
