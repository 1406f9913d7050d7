import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Parallel chats (issue 49, item 1) where users see them, with `loopwire.approval: ask`: a first chat's task
// runs (its model held back), New Chat opens a second beside it and its task runs too; the panel
// lists both, running. The first's command then waits for approval while the second is shown: a notification
// names the first chat, and Show switches to it with its card; both finish, neither stopped by the switches.
// The embedded backend's wire log (LOOPWIRE_WIRE_LOG) shows one connection: the first chat on the socket's
// default lane, the second on its own stream_id, sent while the first's task was under way.
// Then each chat's commands running in the background are its own: the list above the composer shows the
// shown chat's, and one chat's Stop ends its command while the other chat's runs on.
// Screenshots in test-artifacts/workbench/parallel-chats/ (the side bar at its default width, 300 px).

const PARALLEL_ARTIFACTS = path.join(ARTIFACTS, 'parallel-chats');
const FIRST = 'first: touch first-chat.txt';
const SECOND = 'second: say hello';

/** Each command's sleep has a length of its own: its processes are found on the host by it (they run in the sandbox). */
const SLEEPS = { one: '41.5', two: '41.6' } as const;

/** A command left running in the background; `think`: the model then keeps the task running (Stop comes mid-task). */
const serve = (name: keyof typeof SLEEPS, think: boolean) => ({
  name: `serve-${name}`,
  match: `^serve ${name}$`,
  steps: [
    {
      output: [
        {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: `sleep ${SLEEPS[name]}`, yield_time_ms: 500 },
        },
      ],
    },
    {
      ...(think ? { fault: { kind: 'stall', after_events: 1, ms: 60_000 } } : {}),
      output: [{ type: 'message', text: `serve ${name}: it runs on in the background.` }],
    },
  ],
});

/** Some process of the command sleeping `SLEEPS[name]` runs on the host, not a zombie. */
function alive(name: keyof typeof SLEEPS): boolean {
  return fs.readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const words = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const zombie = /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
      return words[0]?.endsWith('sleep') === true && words[1] === SLEEPS[name] && !zombie;
    } catch {
      return false;
    }
  });
}

// The two chats' models hold back their first answers until the test has seen both running (it writes their
// release files), a minute at most: fixed delays had to be sized for the slowest machine.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-parallel-'));
const release = (name: string) => path.join(scratch, `release-${name}`);

const SCENARIOS = {
  scenarios: [
    serve('one', true),
    serve('two', false),
    {
      name: 'first-chat',
      match: '^first: (?<cmd>.+)$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 1, ms: 60_000, until_file: release('first') },
          output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: '{{cmd}}' } }],
        },
        { output: [{ type: 'message', text: 'The first chat touched its file.' }] },
      ],
    },
    {
      name: 'second-chat',
      match: '^second: say hello$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 1, ms: 60_000, until_file: release('second') },
          output: [{ type: 'message', text: 'Hello from the second chat.' }],
        },
      ],
    },
  ],
};

interface WireLine {
  conn: string;
  ts: number;
  dir?: string;
  type: string;
  body?: { stream_id?: string; generate?: boolean; input?: unknown };
}

describe('Loopwire in the VS Code workbench: two chats at once', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const wireFile = path.join(scratch, 'wire.jsonl');
  before(() => {
    process.env['LOOPWIRE_WIRE_LOG'] = wireFile;
  });
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  useWorkbench((started) => (workbench = started), {
    artifacts: PARALLEL_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'parallel-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['parallel-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });

  const toast = (text: string): Locator =>
    workbench.page.locator('.notifications-toasts .notification-toast', { hasText: text });
  const tabs = (panel: Frame) => panel.locator('nav.chat-list .chat-tab');
  const tabState = (panel: Frame, at: number) =>
    tabs(panel)
      .nth(at)
      .getAttribute('class')
      .then((name) => /\b(new|running|queued|waiting|done|failed|stopped)\b/.exec(name ?? '')?.[1]);

  async function send(panel: Frame, prompt: string): Promise<void> {
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    await panel.locator('.entry.user .bubble', { hasText: prompt }).waitFor();
  }

  it('two chats run at once; the hidden one’s approval is a notification naming it; Show switches; both finish', async () => {
    let panel = await workbench.panel();
    await send(panel, FIRST);
    // New Chat while the first task runs: a second chat beside it, shown, the first listed as running.
    await workbench.command('Loopwire: New Chat');
    panel = await workbench.panel();
    await until('the list of two chats', async () => ((await tabs(panel).count()) === 2 ? true : undefined));
    await send(panel, SECOND);
    await until('both running', async () =>
      (await tabState(panel, 0)) === 'running' && (await tabState(panel, 1)) === 'running' ? true : undefined,
    );
    assert.equal(await panel.locator('.entry.user .bubble', { hasText: FIRST }).count(), 0, 'the second is shown');
    await workbench.screenshot('two-running', { sidebar: true });
    fs.writeFileSync(release('second'), '');
    fs.writeFileSync(release('first'), '');

    // The first chat's command waits for approval while the second is shown: a notification names the chat.
    const notice = toast('Loopwire is waiting for your approval in “first: touch first-chat.txt”');
    await notice.waitFor({ timeout: 30_000 });
    assert.match((await notice.textContent()) ?? '', /Run command touch first-chat\.txt/);
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'Hello from the second chat.' })
      .waitFor({ timeout: 30_000 });
    await until('the first waiting, the second done', async () =>
      (await tabState(panel, 0)) === 'waiting' && (await tabState(panel, 1)) === 'done' ? true : undefined,
    );
    await workbench.screenshot('hidden-approval');
    await workbench.screenshot('hidden-approval-sidebar', { sidebar: true });

    // Show switches to the first chat, its card waiting; nothing was stopped.
    await notice.getByRole('button', { name: 'Show' }).click();
    const card = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await panel.locator('.entry.user .bubble', { hasText: FIRST }).count(), 1, 'the first is shown');
    await workbench.screenshot('switched-to-first', { sidebar: true });
    await card.locator('button[data-action="allow"]').click();
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'The first chat touched its file.' })
      .waitFor({ timeout: 30_000 });
    await until('both done', async () =>
      (await tabState(panel, 0)) === 'done' && (await tabState(panel, 1)) === 'done' ? true : undefined,
    );
    assert.ok(fs.existsSync(path.join(workbench.workspace, 'first-chat.txt')));
    // Back to the second: its answer is there, as it was.
    await tabs(panel).nth(1).locator('.chat-tab-open').click();
    await panel.locator('.entry.assistant', { hasText: 'Hello from the second chat.' }).waitFor();
    await workbench.screenshot('both-done', { sidebar: true });

    // One connection; the first chat on the default lane, the second on its own, mid-way through the first's task.
    const sent = fs
      .readFileSync(wireFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WireLine)
      .filter((line) => line.dir === 'in' && line.type === 'response.create' && line.body?.generate !== false);
    const textOf = (line: WireLine | undefined) => JSON.stringify(line?.body?.input ?? '');
    assert.equal(new Set(sent.map((line) => line.conn)).size, 1, 'one socket');
    // In the order received: the first's prompt, the second's (on its lane), then the first's command output.
    assert.deepEqual(
      sent.map((line) => line.body?.stream_id),
      [undefined, 'chat-2', undefined],
    );
    assert.ok(textOf(sent[0]).includes(FIRST) && textOf(sent[1]).includes(SECOND));
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('each chat’s background commands are its own: its list, and its Stop leaves the other’s running', async () => {
    const panel = await workbench.panel();
    const list = panel.getByRole('list', { name: 'Commands running in the background' });
    const rows = list.locator('.command-row');
    const serveIn = async (at: number, name: keyof typeof SLEEPS) => {
      await tabs(panel).nth(at).locator('.chat-tab-open').click();
      await send(panel, `serve ${name}`);
      await panel.locator('.entry.tool .tool-card.status-approval button[data-action="allow"]').first().click();
      await until(`${name} running`, () => Promise.resolve(alive(name) ? true : undefined));
    };
    await serveIn(0, 'one');
    // The first chat's task goes on (its model is slow); the second's command is started beside it.
    await serveIn(1, 'two');
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'serve two: it runs on in the background.' })
      .waitFor({ timeout: 30_000 });
    await until('the second chat’s list: its command alone', async () =>
      (await rows.count()) === 1 && (await rows.first().innerText()).includes(SLEEPS.two) ? true : undefined,
    );
    await workbench.screenshot('commands-second', { sidebar: true });
    await tabs(panel).nth(0).locator('.chat-tab-open').click();
    await until('the first chat’s list: its command alone', async () =>
      (await rows.count()) === 1 && (await rows.first().innerText()).includes(SLEEPS.one) ? true : undefined,
    );
    await workbench.screenshot('commands-first', { sidebar: true });
    // The first chat's Stop (the toolbar's, on the chat shown) ends its task and its command only.
    await workbench.command('Loopwire: Stop');
    await until('the first chat’s command stopped', () => Promise.resolve(alive('one') ? undefined : true), 15_000);
    await until('the first chat’s list gone', async () => ((await list.isVisible()) ? undefined : true));
    assert.ok(alive('two'), 'the second chat’s command runs on');
    await tabs(panel).nth(1).locator('.chat-tab-open').click();
    await until('the second chat’s list', async () => ((await rows.count()) === 1 ? true : undefined));
    await workbench.screenshot('commands-first-stopped', { sidebar: true });
    await rows.first().getByRole('button', { name: 'Stop command' }).click();
    await until('the second chat’s command stopped', () => Promise.resolve(alive('two') ? undefined : true), 15_000);
    assert.deepEqual(workbench.pageErrors, []);
  });
});
