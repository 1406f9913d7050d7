import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// The commands running in the background in the real workbench (issue 37, item 4): a scripted model's
// exec_command with yield_time_ms comes back at once and the command goes on, in a Loopwire terminal of its
// own; the panel lists it above the composer with its time and a Stop; Stop ends its process group and the
// list goes; the toolbar's Stop mid-task and New Chat end others the same way; the card of a command left
// running says so, its time ticking, until it ends with its exit code (issue 47, item 5). The scripted model answers
// from a scenario file in the workspace; each command is run from its approval card (sleep is no command that
// only reads). Screenshots go to test-artifacts/workbench/commands/.

const COMMAND_ARTIFACTS = path.join(ARTIFACTS, 'commands');

/**
 * Each command's `sleep` has its own length, so that its processes can be found on the host: a command runs in
 * the OS sandbox (docs/security.md), where `$$` is a pid of its own PID namespace, not the host's.
 */
const SLEEPS: Record<string, string> = { 'one.pid': '30.1', 'two.pid': '30.2', 'three.pid': '30.3' };

const serve = (name: string, pidFile: string) => ({
  name,
  match: `^${name}$`,
  steps: [
    {
      output: [
        {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: `echo $$ > ${pidFile}; echo serving; sleep ${SLEEPS[pidFile]}`, yield_time_ms: 500 },
        },
      ],
    },
    { output: [{ type: 'message', text: `${name}: it runs on in the background.` }] },
  ],
});

/** A command that runs on while the model, slow to answer, keeps the task running: Stop comes mid-task. */
const SERVE_AND_THINK = {
  name: 'serve and think',
  match: '^serve and think$',
  steps: [
    {
      output: [
        {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: `echo $$ > three.pid; sleep ${SLEEPS['three.pid']}`, yield_time_ms: 500 },
        },
      ],
    },
    {
      fault: { kind: 'stall', after_events: 1, ms: 30_000 },
      output: [{ type: 'message', text: 'serve and think: too late.' }],
    },
  ],
};

/**
 * A command that prints, goes on past its yield time, prints again and ends on its own with exit code 3; the
 * model then polls it (`poll N`, N its session id, read from the panel's list) once it has printed more. It
 * goes on from one step to the next when the test writes `tick.go`, then `tick.end`, in the workspace (and
 * says it printed with `tick.printed`): the test waits for no clock but the card's time ticking.
 */
const TICK_COMMAND = [
  'echo begun',
  'until [ -e tick.go ]; do sleep 0.1; done',
  'echo ticked',
  'touch tick.printed',
  'until [ -e tick.end ]; do sleep 0.1; done',
  'exit 3',
].join('; ');

const TICK = {
  name: 'tick',
  match: '^tick$',
  steps: [
    {
      output: [
        {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: TICK_COMMAND, yield_time_ms: 500 },
        },
      ],
    },
    { output: [{ type: 'message', text: 'tick: it runs on in the background.' }] },
  ],
};

const POLL = {
  name: 'poll',
  match: '^poll (\\d+)$',
  steps: [
    {
      output: [
        {
          type: 'function_call',
          name: 'write_stdin',
          // As raw text: a capture in an object's string would make the id a string.
          arguments: '{"session_id": {{1}}, "chars": "", "yield_time_ms": 250}',
        },
      ],
    },
    { output: [{ type: 'message', text: 'poll: polled.' }] },
  ],
};

const SCENARIOS = {
  scenarios: [serve('serve one', 'one.pid'), serve('serve two', 'two.pid'), SERVE_AND_THINK, TICK, POLL],
};

/** Running, not a zombie waiting for a reaper. */
const running = (pid: string) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Some process of the command whose pid file is `pidFile` still runs on the host (its shell, its sleep). */
const alive = (pidFile: string) => {
  const length = SLEEPS[pidFile] ?? '';
  return fs.readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const words = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return words.some((word) => word === length || word.endsWith(`sleep ${length}`)) && running(pid);
    } catch {
      return false;
    }
  });
};

describe('Loopwire in the VS Code workbench: the commands running in the background', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  useWorkbench((started) => (workbench = started), {
    artifacts: COMMAND_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'command-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify(
          {
            'loopwire.endpoint': 'embedded',
            'loopwire.scenarioFiles': ['command-scenarios.json'],
          },
          null,
          2,
        )}\n`,
      );
    },
  });

  async function serveFrom(panel: Frame, prompt: string): Promise<string> {
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    // sleep is no command that only reads: the user runs it (a workspace's settings cannot allow it).
    await panel
      .locator('.entry.tool .tool-card.status-approval button[data-action="allow"]')
      .first()
      .click({ timeout: 30_000 });
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: `${prompt}: it runs on in the background.` })
      .waitFor({ timeout: 60_000 });
    const name = prompt === 'serve one' ? 'one.pid' : 'two.pid';
    const file = path.join(workbench.workspace, name);
    return until('the command’s pid', () =>
      Promise.resolve(fs.existsSync(file) && /^\d+\n$/.test(fs.readFileSync(file, 'utf8')) ? name : undefined),
    );
  }

  it('lists a command that runs on, with its time; its Stop ends its group and the list goes', async () => {
    const panel = await workbench.panel();
    const list = panel.getByRole('list', { name: 'Commands running in the background' });
    assert.equal(await list.isVisible(), false, 'none runs yet');
    const pid = await serveFrom(panel, 'serve one');
    await list.waitFor({ timeout: 15_000 });
    const row = list.locator('.command-row');
    assert.equal(await row.count(), 1);
    assert.match(await row.locator('.command-line').innerText(), /^echo \$\$ > one\.pid; echo serving; sleep 30\.1$/);
    assert.ok(alive(pid), 'it runs');
    // The time goes on: a second later it says more than before.
    const before = await row.locator('.command-time').innerText();
    await until('the time ticking', async () =>
      (await row.locator('.command-time').innerText()) !== before ? true : undefined,
    );
    await workbench.screenshot('command-running', { sidebar: true });
    await workbench.screenshot('command-running-window');

    await row.getByRole('button', { name: 'Stop command' }).click();
    await until('the list gone', async () => ((await list.isVisible()) ? undefined : true), 15_000);
    await until('the command gone', () => Promise.resolve(alive(pid) ? undefined : true), 10_000);
    await workbench.screenshot('command-stopped', { sidebar: true });
  });

  it('Stop while the task runs ends its command too', async () => {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill('serve and think');
    await box.press('Enter');
    await panel
      .locator('.entry.tool .tool-card.status-approval button[data-action="allow"]')
      .first()
      .click({ timeout: 30_000 });
    const list = panel.getByRole('list', { name: 'Commands running in the background' });
    await list.waitFor({ timeout: 15_000 });
    const file = path.join(workbench.workspace, 'three.pid');
    const pid = await until('the command’s pid', () =>
      Promise.resolve(fs.existsSync(file) && /^\d+\n$/.test(fs.readFileSync(file, 'utf8')) ? 'three.pid' : undefined),
    );
    assert.ok(alive(pid), 'it runs');
    await panel.getByRole('toolbar', { name: 'Chat' }).getByRole('button', { name: 'Stop' }).click();
    await until('the list gone', async () => ((await list.isVisible()) ? undefined : true), 15_000);
    await until('the command gone', () => Promise.resolve(alive(pid) ? undefined : true), 10_000);
  });

  it('New Chat ends a command still running, and the list goes with it', async () => {
    const panel = await workbench.panel();
    const pid = await serveFrom(panel, 'serve two');
    const list = panel.getByRole('list', { name: 'Commands running in the background' });
    await list.waitFor({ timeout: 15_000 });
    await workbench.command('Loopwire: New Chat');
    await until('the list gone', async () => ((await list.isVisible()) ? undefined : true), 15_000);
    await until('the command gone', () => Promise.resolve(alive(pid) ? undefined : true), 10_000);
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('a command left running: its card says running, its time ticking, then its exit code; a poll shows its new output', async () => {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill('tick');
    await box.press('Enter');
    await panel
      .locator('.entry.tool .tool-card.status-approval button[data-action="allow"]')
      .first()
      .click({ timeout: 30_000 });
    await panel
      .locator('.entry.assistant:not(.streaming)', { hasText: 'tick: it runs on in the background.' })
      .waitFor({ timeout: 60_000 });
    // The call has answered the model, but its command goes on: its card says so, not "done 532 ms".
    // The exec_command's card (a poll's card names the command too, in its output).
    const header = panel
      .locator('.entry.tool .tool-header', { has: panel.locator('.tool-name', { hasText: /^exec_command$/ }) })
      .filter({ hasText: 'echo begun' })
      .last();
    assert.equal(await header.locator('.tool-status').innerText(), 'running');
    const time = header.locator('.tool-duration');
    const before = await time.innerText();
    assert.match(before, /^\d+ s$/);
    await until('the card’s time ticking', async () => ((await time.innerText()) !== before ? true : undefined));
    await workbench.screenshot('card-running', { sidebar: true });

    // Once it has printed its second line, the model polls it: the poll's card shows that line.
    const row = panel.locator('.command-row').last();
    const id = await row.getAttribute('data-id');
    const tick = (name: string) => path.join(workbench.workspace, name);
    fs.writeFileSync(tick('tick.go'), '');
    await until('the command past its second line', () =>
      Promise.resolve(fs.existsSync(tick('tick.printed')) ? true : undefined),
    );
    await box.fill(`poll ${id}`);
    await box.press('Enter');
    await panel.locator('.entry.assistant:not(.streaming)', { hasText: 'poll: polled.' }).waitFor({ timeout: 60_000 });
    const poll = panel.locator('.entry.tool .tool-card', { hasText: 'write_stdin' }).last();
    const polled = (await poll.locator('.tool-output pre').textContent()) ?? '';
    assert.match(polled, /^ticked$/m);
    assert.doesNotMatch(polled, /no new output/);
    assert.doesNotMatch(polled, /^begun$/m, 'only what is new since the call’s answer');
    await poll.locator('.tool-output summary').click();
    await workbench.screenshot('poll-card', { sidebar: true });

    // It ends by itself: its card says how, and how long it ran.
    fs.writeFileSync(tick('tick.end'), '');
    await header.locator('.tool-status', { hasText: 'exit code 3' }).waitFor({ timeout: 30_000 });
    assert.match(await time.innerText(), /^\d+\.\d s$/);
    assert.equal(await header.locator('xpath=..').getAttribute('class'), 'tool-card status-failed');
    await workbench.screenshot('card-ended', { sidebar: true });
  });
});
