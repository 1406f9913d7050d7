import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, openInEditor, until } from './workbench';

// Fix and edit where the code is (issue 39), in the real workbench: the light bulb's Fix with Loopwire on the demo's
// broken config/shipping.json streams its edit into the editor and Undo takes it back; Ctrl+I on a selection of
// src/cart.js with a prompt, one hunk undone and the other kept from the editor's lenses; an inline fix while a chat
// task runs, both on the one socket (its wire log: two lanes, one connection); Escape while the edit streams leaves
// the file as it was; Undo All and Keep All of a two-hunk edit; what the user types elsewhere while the edit streams
// stays through Undo. Each inline edit, once over, is one short entry in the panel's chat ("Fixed inline in
// config/shipping.json:3", undone), whose card opens on the diff; none is a chat of its own in History, and the
// entries are there again after a reload. The scripted model answers from a scenario file in the workspace
// (`loopwire.scenarioFiles`) and the bundled demo-inline-fix-json. Screenshots go to
// test-artifacts/workbench/inline/, with the Enter-to-first-line timings the log gave (timings.json).

const INLINE_ARTIFACTS = path.join(ARTIFACTS, 'inline');
const WIRE_LOG = path.join(INLINE_ARTIFACTS, 'wire.jsonl');

const editFile = (edits: { old_string: string; new_string: string }[]) => ({
  type: 'function_call',
  name: 'edit_file',
  arguments: { path: 'src/cart.js', edits },
});

// Each inline scenario is one response, its note after the edit: the task ends on the edit (src/agent/editEnd.ts),
// and a note written first would hold back the first changed line.
const SCENARIOS = {
  scenarios: [
    {
      name: 'inline-discount',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: take the percent of the amount',
      steps: [
        {
          output: [
            editFile([
              {
                old_string: '/** Takes `percent` percent (0 to 100) off an amount in cents. */',
                new_string: '/** Takes `percent` percent (0 to 100) of an amount off it, in cents. */',
              },
              {
                old_string: '  return roundCents(amount - percent);',
                new_string: '  const discount = (amount * percent) / 100;\n  return roundCents(amount - discount);',
              },
            ]),
            { type: 'message', text: 'The discount is now that percent of the amount.' },
          ],
        },
      ],
    },
    {
      name: 'inline-slow',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: rewrite cartTotal slowly',
      steps: [
        {
          fault: { kind: 'slow', factor: 60 },
          output: [
            editFile([
              {
                old_string: '  const subtotal = lines.reduce((sum, line) => sum + lineTotal(line), 0);',
                new_string: [
                  '  // Sum every line first, one by one.',
                  '  let subtotal = 0;',
                  '  for (const line of lines) subtotal += lineTotal(line);',
                  '  // Then the discount, on the whole.',
                  '  // (A long comment, so that the edit takes a while to write.)',
                ].join('\n'),
              },
            ]),
            { type: 'message', text: 'Rewritten.' },
          ],
        },
      ],
    },
    {
      name: 'inline-both',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: say what each function returns',
      steps: [
        {
          output: [
            editFile([
              {
                old_string: '/** The price of one line of the cart, in cents. */',
                new_string: '/** The price of one line of the cart, in cents (price times quantity). */',
              },
              {
                old_string: "/** The cart's total in cents: every line, then the discount. */",
                new_string: "/** The cart's total in cents: every line summed, then the discount taken off. */",
              },
            ]),
            { type: 'message', text: 'Each comment says what its function returns.' },
          ],
        },
      ],
    },
    {
      name: 'chat-waits',
      match: 'wait for me',
      steps: [
        {
          fault: { kind: 'stall', after_events: 3, ms: 20_000 },
          output: [{ type: 'message', text: 'Done waiting: the inline fix ran beside this task.' }],
        },
      ],
    },
  ],
};

/** Monaco draws spaces as no-break spaces. */
const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' ');
/** A line's words with one space between them (an entry's icon, title and outcome are separate elements). */
const flat = (line: string) => line.replace(/\s+/g, ' ');

describe('Loopwire in the VS Code workbench: inline fix and edit', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  before(() => {
    fs.mkdirSync(INLINE_ARTIFACTS, { recursive: true });
    fs.rmSync(WIRE_LOG, { force: true });
    process.env['LOOPWIRE_WIRE_LOG'] = WIRE_LOG;
  });
  after(() => delete process.env['LOOPWIRE_WIRE_LOG']);

  useWorkbench((started) => (workbench = started), {
    artifacts: INLINE_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'inline-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['inline-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });

  const shot = (name: string) => workbench.screenshot(name);
  const lines = () =>
    workbench.page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
  const lens = (title: string) =>
    workbench.page
      .locator('.part.editor .editor-group-container.active .codelens-decoration a', {
        hasText: new RegExp(`^${title}$`),
      })
      .first();
  /** Whether the workbench's focus is in an editor (not in the panel's webview, nor anywhere else). */
  const focusInEditor = () =>
    workbench.page.evaluate<boolean>("document.activeElement?.closest('.part.editor') != null");
  const lensCount = () =>
    workbench.page.locator('.part.editor .editor-group-container.active .codelens-decoration a').count();

  /** Opens `file` with Quick Open, or, once open, by its tab (Quick Open may still be closing after another quick input). */
  async function openFile(file: string, expected: string): Promise<void> {
    const tab = workbench.page.locator('.part.editor .tab', { hasText: path.basename(file) });
    if ((await tab.count()) > 0) await tab.first().click();
    else await openInEditor(workbench.page, file);
    const view = lines();
    await until(`${file} in the editor`, async () => ((await text(view)).includes(expected) ? true : undefined));
    await view.click();
  }

  async function goTo(where: string): Promise<void> {
    const { page } = workbench;
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${where}`);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
  }

  /** The editor's lines, sorted (Monaco keeps its line elements in no particular order). */
  const lineTexts = async () =>
    (await lines().locator('.view-line').allTextContents()).map((line) => line.replace(/\u00a0/g, ' ')).sort();

  /** Waits until the editor's text includes (or, `absent`, lacks) `snippet`. */
  const shows = (snippet: string, absent = false, timeoutMs = 30_000) =>
    until(
      `${absent ? 'no ' : ''}${snippet} in the editor`,
      async () => ((await text(lines())).includes(snippet) !== absent ? true : undefined),
      timeoutMs,
    );

  /** Opens the light bulb's menu on the JSON error and returns its rows' titles, in order. */
  async function quickFixMenu(): Promise<string[]> {
    const { page } = workbench;
    await openFile('config/shipping.json', 'freeShippingFrom');
    await page.locator('.part.editor .editor-group-container.active .squiggly-error').first().waitFor();
    await goTo('3:28');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Loopwire' }).first();
    let askedAt = 0;
    await until('Fix with Loopwire in the code actions', async () => {
      if (await fix.isVisible()) return true;
      if (Date.now() - askedAt > 3_000) {
        askedAt = Date.now();
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+.');
      }
      return undefined;
    });
    return (await page.locator('.action-widget .monaco-list-row').allTextContents()).map((row) => row.trim());
  }

  it('the light bulb fixes config/shipping.json inline, and Undo takes the fix back', async () => {
    const rows = await quickFixMenu();
    const inline = rows.findIndex((row) => row.includes('Fix with Loopwire'));
    const chat = rows.findIndex((row) => row.includes('Fix in Chat'));
    assert.ok(inline >= 0 && chat > inline, `Fix with Loopwire first, then Fix in Chat: ${rows.join(' / ')}`);
    await shot('quick-fix-menu');
    await workbench.page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Loopwire' }).first().click();
    await lens('Undo').waitFor({ timeout: 60_000 });
    await shows('"freeShippingFrom": 5000,');
    await shows('5000,,', true);
    await shot('fix-streamed');
    await lens('Undo').click();
    await shows('5000,,');
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    // The file was saved before the fix and is as it was: no unsaved mark either.
    const tab = workbench.page.locator('.part.editor .tab.active', { hasText: 'shipping.json' });
    await until('the tab without its unsaved mark', async () =>
      (await tab.getAttribute('class'))?.split(' ').includes('dirty') ? undefined : true,
    );
    await shot('fix-undone');

    // The chat beside it has the fix as one short line, and the editor kept the focus.
    const panel = await workbench.panel();
    const entry = panel.locator('.entry.inline', { hasText: 'Fixed inline in config/shipping.json:3' });
    await entry.waitFor({ timeout: 15_000 });
    assert.match(
      flat(await entry.locator('.inline-header').innerText()),
      /Fixed inline in config\/shipping\.json:3 undone/,
    );
    assert.equal(await entry.locator('.inline-body').isVisible(), false, 'folded');
    assert.equal(await focusInEditor(), true, 'the entry took no focus');
    await workbench.screenshot('chat-entry', { sidebar: true });
    await entry.locator('.inline-toggle').click();
    await entry.locator('.inline-body').waitFor();
    assert.match(await entry.locator('.inline-prompt').innerText(), /property|comma|JSON/i);
    assert.match(flat(await entry.locator('.diff .line.added').first().innerText()), /"freeShippingFrom": 5000,$/);
    await workbench.screenshot('chat-entry-open', { sidebar: true });
    // Its path opens the file at that line.
    await openFile('src/cart.js', 'applyDiscount');
    await entry.getByRole('link', { name: 'config/shipping.json:3' }).click();
    await until('config/shipping.json at line 3', async () => {
      const tab = await text(workbench.page.locator('.part.editor .tab.active'));
      const where = await text(workbench.page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first());
      return tab.includes('shipping.json') && /^Ln 3,/.test(where.trim()) ? true : undefined;
    });
  });

  it('in read-only the light bulb offers Fix in Chat alone, and Ctrl+I opens no inline prompt', async () => {
    const { page } = workbench;
    const panel = await workbench.panel();
    const approvals = panel.getByRole('combobox', { name: 'Approvals', exact: true });
    await approvals.selectOption('read-only');
    try {
      await openFile('config/shipping.json', 'freeShippingFrom');
      await page.locator('.part.editor .editor-group-container.active .squiggly-error').first().waitFor();
      await goTo('3:28');
      const chat = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix in Chat' }).first();
      let askedAt = 0;
      await until('Fix in Chat in the code actions', async () => {
        if (await chat.isVisible()) return true;
        if (Date.now() - askedAt > 3_000) {
          askedAt = Date.now();
          await page.keyboard.press('Escape');
          await page.keyboard.press('Control+.');
        }
        return undefined;
      });
      const rows = (await page.locator('.action-widget .monaco-list-row').allTextContents()).map((row) => row.trim());
      assert.ok(!rows.some((row) => row.includes('Fix with Loopwire')), `no inline fix: ${rows.join(' / ')}`);
      await shot('read-only-quick-fix');
      await page.keyboard.press('Escape');
      // Ctrl+I is not ours while `loopwire.inlineEditOff` holds: no prompt, nor the command's refusal.
      await lines().click();
      await page.keyboard.press('Control+i');
      await page.waitForTimeout(1_500);
      assert.equal(await page.locator('.quick-input-widget', { hasText: 'Edit Inline' }).isVisible(), false);
      assert.equal(await page.locator('.notifications-toasts', { hasText: 'inline edits' }).count(), 0);
      await page.keyboard.press('Escape');
    } finally {
      await approvals.selectOption('ask');
    }
  });

  it('Ctrl+I on a selection with a prompt: one hunk undone, the other kept', async () => {
    const { page } = workbench;
    await openFile('src/cart.js', 'applyDiscount');
    await goTo('10');
    for (let i = 0; i < 7; i++) await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+i');
    const box = page.locator('.quick-input-widget');
    await until('the inline prompt', async () => ((await text(box)).includes('Edit Inline') ? true : undefined));
    assert.match(await text(box), /src\/cart\.js:10–16/);
    await page.locator('.quick-input-widget input').fill('take the percent of the amount');
    await shot('prompt');
    await page.keyboard.press('Enter');
    await lens('Keep All').waitFor({ timeout: 60_000 });
    await shows('const discount = (amount * percent) / 100;');
    await shows('of an amount off it');
    await shot('edit-streamed');
    // The first hunk (the comment) taken back, the second (the return) kept.
    await lens('Undo').click();
    await shows('off an amount in cents');
    await until('the lenses of the hunk left', async () => ((await lensCount()) === 2 ? true : undefined));
    await lens('Keep').click();
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    await shows('const discount = (amount * percent) / 100;');
    await shot('edit-kept');
  });

  it('an inline fix runs while a chat task runs, on the same socket', async () => {
    const panel = await workbench.panel();
    // Loopwire: Ask… sends to the chat from the workbench, whatever the panel's focus.
    await workbench.command('Loopwire: Ask…');
    // Its own input box, not the command palette's closing one: typed too early, the text went to the editor.
    const ask = workbench.page.locator('.quick-input-widget', { hasText: 'A task or a question about this workspace' });
    await ask.waitFor({ timeout: 15_000 });
    await ask.locator('input').fill('wait for me');
    await workbench.page.keyboard.press('Enter');
    const requests = () => wireLines().filter((line) => line.dir === 'in' && line.type === 'response.create');
    await until('the chat’s request', () => Promise.resolve(chatRequest() ? true : undefined));
    await quickFixMenu();
    await workbench.page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Loopwire' }).first().click();
    await lens('Undo').waitFor({ timeout: 60_000 });
    await shows('5000,,', true);
    // The chat's answer is still held back by the model (20 s): the fix did not wait for it.
    assert.equal(
      await panel.locator('.entry.assistant', { hasText: 'Done waiting' }).count(),
      0,
      'the chat task runs on',
    );
    await shot('fix-beside-chat');
    const inlineCreate = requests().find((line) => typeof line.body?.stream_id === 'string');
    const chatCreate = chatRequest();
    assert.ok(inlineCreate && chatCreate, 'both requests in the wire log');
    assert.match(String(inlineCreate.body?.stream_id), /^inline-\d+$/);
    // One request: the edit ends the inline task, no closing answer is asked for (src/agent/editEnd.ts).
    const lane = inlineCreate.body?.stream_id;
    const generating = requests().filter((line) => line.body?.stream_id === lane && line.body?.generate !== false);
    assert.equal(generating.length, 1, 'the inline fix made one model request');
    assert.equal(inlineCreate.conn, chatCreate.conn, 'one socket');
    assert.equal(
      new Set(
        wireLines()
          .filter((line) => line.type === 'open')
          .map((line) => line.conn),
      ).size,
      1,
    );
    await panel.locator('.entry.assistant', { hasText: 'Done waiting' }).waitFor({ timeout: 60_000 });
    await lens('Keep').click();
    await workbench.screenshot('chat-done', { sidebar: true });
  });

  it('Escape while the edit streams leaves the file as it was', async () => {
    const { page } = workbench;
    await openFile('src/cart.js', 'cartTotal');
    const before = await lineTexts();
    await goTo('20');
    // Escape in the prompt closes it, and nothing else happens.
    await page.keyboard.press('Control+i');
    const box = page.locator('.quick-input-widget');
    await until('the inline prompt', async () => ((await text(box)).includes('Edit Inline') ? true : undefined));
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
    assert.deepEqual(await lineTexts(), before);
    await page.keyboard.press('Control+i');
    await page.locator('.quick-input-widget input').fill('rewrite cartTotal slowly');
    await page.keyboard.press('Enter');
    await shows('// Sum every line', false, 60_000);
    await shot('escape-mid-stream');
    assert.equal(await lensCount(), 1, 'the Stop lens while it writes');
    await page.keyboard.press('Escape');
    await shows('// Sum every line', true);
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.deepEqual(await lineTexts(), before);
    await shot('escape-untouched');
    assert.equal(
      fs.readFileSync(path.join(workbench.workspace, 'src', 'cart.js'), 'utf8').includes('Sum every'),
      false,
    );
  });

  it('Undo All and Keep All take the whole edit back, or keep it', async () => {
    const { page } = workbench;
    await openFile('src/cart.js', 'cartTotal');
    const before = await lineTexts();
    const ask = async () => {
      await goTo('5');
      for (let i = 0; i < 14; i++) await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Control+i');
      const box = page.locator('.quick-input-widget');
      await until('the inline prompt', async () => ((await text(box)).includes('Edit Inline') ? true : undefined));
      await page.locator('.quick-input-widget input').fill('say what each function returns');
      await page.keyboard.press('Enter');
      await lens('Undo All').waitFor({ timeout: 60_000 });
      await shows('(price times quantity)');
      await shows('every line summed, then the discount taken off');
    };
    await ask();
    await lens('Undo All').click();
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    assert.deepEqual(await lineTexts(), before, 'Undo All: the file as it was');
    await ask();
    await shot('both-hunks');
    await lens('Keep All').click();
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    await shows('(price times quantity)');
    await shows('every line summed, then the discount taken off');
  });

  it('typing elsewhere while the edit streams: the typing stays, and Undo takes back the edit only', async () => {
    const { page } = workbench;
    await openFile('src/cart.js', 'cartTotal');
    const before = await lineTexts();
    assert.ok(before.includes(''), 'the file ends with an empty line');
    await goTo('20');
    await page.keyboard.press('Control+i');
    const box = page.locator('.quick-input-widget');
    await until('the inline prompt', async () => ((await text(box)).includes('Edit Inline') ? true : undefined));
    await page.locator('.quick-input-widget input').fill('rewrite cartTotal slowly');
    await page.keyboard.press('Enter');
    await shows('// Sum every line', false, 60_000);
    // The user goes on at the end of the file while the model still writes.
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// typed while Loopwire wrote');
    await lens('Undo').waitFor({ timeout: 60_000 });
    await shows('(A long comment, so that the edit takes a while to write.)');
    await shows('// typed while Loopwire wrote');
    await shot('typed-while-streaming');
    await lens('Undo').click();
    await until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined));
    const expected = [...before];
    expected.splice(expected.indexOf(''), 1, '// typed while Loopwire wrote');
    assert.deepEqual(await lineTexts(), expected.sort(), 'the edit gone, the typing kept');
  });

  it('every inline edit is an entry of the chat, not a chat of its own in History, and stays after a reload', async () => {
    const panel = await workbench.panel();
    const titles = async () =>
      (await panel.locator('.entry.inline .inline-header').allInnerTexts()).map((title) => flat(title).trim());
    const expected = [
      'Fixed inline in config/shipping.json:3 undone',
      'Edited inline in src/cart.js:10 1 of 2 kept',
      /^Fixed inline in config\/shipping\.json:3 (kept|undone)$/,
      'Edited inline in src/cart.js:20 stopped',
      'Edited inline in src/cart.js:5 undone',
      'Edited inline in src/cart.js:5 kept',
      'Edited inline in src/cart.js:20 undone',
    ];
    const matches = (found: string[]) =>
      found.length === expected.length &&
      expected.every((want, i) => (typeof want === 'string' ? found[i] === want : want.test(found[i] ?? '')));
    await until('the seven inline entries', async () => (matches(await titles()) ? true : undefined), 15_000).catch(
      async () => assert.fail(`inline entries: ${JSON.stringify(await titles())}`),
    );
    await panel.getByRole('button', { name: 'History', exact: true }).click();
    const rows = panel.locator('.history li button');
    await rows.first().waitFor({ timeout: 15_000 });
    const listed = await rows.allInnerTexts();
    assert.ok(
      listed.some((row) => row.includes('wait for me')),
      `the chat is listed: ${listed.join(' / ')}`,
    );
    assert.ok(
      listed.every((row) => !/inline/i.test(row) && !row.includes('(no prompt)')),
      `no inline request is a chat of its own: ${listed.join(' / ')}`,
    );
    await workbench.screenshot('history', { sidebar: true });
    await workbench.page.keyboard.press('Escape');

    await workbench.reload();
    const reloaded = await workbench.panel();
    const after = async () =>
      (await reloaded.locator('.entry.inline .inline-header').allInnerTexts()).map((title) => flat(title).trim());
    await until('the inline entries after a reload', async () => (matches(await after()) ? true : undefined), 30_000);
    await workbench.screenshot('chat-entries-reloaded', { sidebar: true });
  });

  it('writes the log’s Enter-to-first-line timings', () => {
    const timings = loopwireLog()
      .split('\n')
      .filter((line) => line.includes('first line painted'));
    fs.writeFileSync(path.join(INLINE_ARTIFACTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
    for (const line of timings) console.log(`      ${line.replace(/^.*inline /, 'inline ')}`);
    assert.ok(timings.length >= 3, `timings in the log: ${timings.length}`);
  });

  interface WireLine {
    conn: string;
    dir?: string;
    type: string;
    body?: { stream_id?: unknown; generate?: unknown; input?: { content?: unknown }[] };
  }

  function wireLines(): WireLine[] {
    return (fs.existsSync(WIRE_LOG) ? fs.readFileSync(WIRE_LOG, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WireLine);
  }

  /** The chat's generating request of 'wait for me' (the default lane: no stream_id). */
  function chatRequest(): WireLine | undefined {
    return wireLines().find(
      (line) =>
        line.dir === 'in' &&
        line.type === 'response.create' &&
        line.body?.generate !== false &&
        line.body?.stream_id === undefined &&
        JSON.stringify(line.body?.input ?? []).includes('wait for me'),
    );
  }

  /** The extension host's Loopwire output channel, from code-server's logs. */
  function loopwireLog(): string {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('Loopwire.log')) found.push(full);
      }
    };
    walk(path.join(workbench.userData, 'logs'));
    return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  }
});
