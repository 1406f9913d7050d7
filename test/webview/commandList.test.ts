import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatEntry } from '../../src/protocol/chatView';
import type { RunningCommand } from '../../src/protocol/runningCommands';
import { blocking, runAxe } from './axe';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';
import type { Theme } from './panelServer';

// The commands running in the background in real Chromium: the page asks for them as it loads, lists each
// with its command, how long it has run (ticking on the page's clock) and a Stop that posts stopCommand once;
// the list follows the host's messages, and goes away when none runs.

const COMMANDS: RunningCommand[] = [
  { id: 1, command: 'npm run dev', runningMs: 5_400 },
  {
    id: 3,
    command: 'node scripts/watch.js --port 5173 --open --verbose --watch src --watch test --ignore dist',
    runningMs: 125_000,
  },
  { id: 4, command: 'tail -f server.log', runningMs: 3_750_000 },
];

const ENTRIES: ChatEntry[] = [
  { kind: 'user', id: 'user:1', text: 'Start the dev server and watch the tests' },
  { kind: 'tool', id: 'c1', turn: 1, name: 'exec_command', summary: 'npm run dev', status: 'done', durationMs: 10_012 },
  { kind: 'assistant', id: 'text:1', text: 'The dev server runs in the background.', streaming: false },
];

describe('chat panel in Chromium: the commands running in the background', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  async function panelWith(theme: Theme): Promise<Panel> {
    const panel = await chromium.open(theme);
    panel.post({ type: 'state', sessionId: 'cmds', entries: ENTRIES, hasOlder: false, running: false, banner: null });
    await panel.delivered();
    return panel;
  }

  const rows = (panel: Panel) => panel.page.locator('.command-list .command-row');
  const times = (panel: Panel) => panel.page.locator('.command-list .command-time').allInnerTexts();

  it('asks for the list as it loads, lists each command with its time ticking, above the plan and the composer', async () => {
    const panel = await panelWith('dark');
    assert.ok(
      (await panel.posted()).some((message) => message.type === 'watchCommands'),
      'the page asks for the list (a reloaded page too)',
    );
    const list = panel.page.getByRole('list', { name: 'Commands running in the background' });
    assert.equal(await list.isVisible(), false, 'none runs: no list');
    panel.post({
      type: 'plan',
      plan: {
        plan: [
          { step: 'Start the dev server', status: 'completed' },
          { step: 'Watch the tests', status: 'in_progress' },
        ],
      },
    });
    panel.post({ type: 'commands', commands: COMMANDS });
    await panel.delivered();
    assert.equal(await list.isVisible(), true);
    assert.deepEqual(
      await list.locator('.command-line').allInnerTexts(),
      COMMANDS.map((command) => command.command),
    );
    // Short, and steady in width as it ticks.
    assert.deepEqual(await times(panel), ['5 s', '2 min 05 s', '1 h 02 min']);
    // The long command is cut with an ellipsis on one line; its whole text is in its title.
    const long = list.locator('.command-line').nth(1);
    assert.equal(await long.getAttribute('title'), COMMANDS[1]?.command);
    const [box, row] = await Promise.all([long.boundingBox(), rows(panel).nth(1).boundingBox()]);
    assert.ok(box && row && box.height <= row.height && row.height < 30, 'one line');
    const [transcript, listBox, dock, composer] = await Promise.all([
      panel.page.locator('.transcript').boundingBox(),
      list.boundingBox(),
      panel.page.locator('.plan-dock').boundingBox(),
      panel.page.locator('.composer').boundingBox(),
    ]);
    assert.ok(transcript && listBox && dock && composer);
    assert.ok(transcript.y + transcript.height <= listBox.y + 1, 'under the conversation');
    assert.ok(listBox.y + listBox.height <= dock.y + 1, 'above the plan');
    assert.ok(dock.y + dock.height <= composer.y + 1, 'and the composer');
    // The time goes on on the page's clock, with no message from the host.
    await panel.page.locator('.command-list .command-time', { hasText: /^6 s$/ }).waitFor({ timeout: 3_000 });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-commands.png') });
    // No critical or serious accessibility violation: the rows' names, the Stop buttons, the contrast.
    assert.deepEqual(blocking(await runAxe(panel.page, 'commands-dark')), []);
    assert.deepEqual(await panel.problems(), []);
  });

  it('Stop posts stopCommand for its row once, marks it stopping; the host’s lists take rows away, none hides it', async () => {
    const panel = await panelWith('light');
    panel.post({ type: 'commands', commands: COMMANDS });
    await panel.delivered();
    const stop = rows(panel).nth(0).getByRole('button', { name: 'Stop command' });
    assert.deepEqual(await panel.postedBy(() => stop.click()), [{ type: 'stopCommand', id: 1 }]);
    assert.equal(await stop.isDisabled(), true, 'one click, one stop');
    assert.match((await rows(panel).nth(0).getAttribute('class')) ?? '', /stopping/);
    // A list sent while it stops (another command ended, say) keeps it marked.
    panel.post({ type: 'commands', commands: COMMANDS.map((command) => ({ ...command, runningMs: 7_000 })) });
    await panel.delivered();
    assert.equal(await rows(panel).nth(0).getByRole('button', { name: 'Stop command' }).isDisabled(), true);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-commands-stopping.png') });
    assert.deepEqual(blocking(await runAxe(panel.page, 'commands-light-stopping')), []);
    panel.post({ type: 'commands', commands: COMMANDS.slice(1, 2) });
    await panel.delivered();
    assert.equal(await rows(panel).count(), 1);
    assert.equal(await rows(panel).nth(0).getAttribute('data-id'), '3');
    assert.equal(await rows(panel).nth(0).getByRole('button', { name: 'Stop command' }).isDisabled(), false);
    panel.post({ type: 'commands', commands: [] });
    await panel.delivered();
    assert.equal(await panel.page.locator('.command-list').isVisible(), false);
    assert.deepEqual(await panel.problems(), []);
  });

  it('reads in high contrast too', async () => {
    const panel = await panelWith('hc-black');
    panel.post({ type: 'commands', commands: COMMANDS.slice(0, 1) });
    await panel.delivered();
    assert.equal(await rows(panel).count(), 1);
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'hc-commands.png') });
    assert.deepEqual(blocking(await runAxe(panel.page, 'commands-hc')), []);
    assert.deepEqual(await panel.problems(), []);
  });
});
