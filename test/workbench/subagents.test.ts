import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Subagents in the chat panel (issue 49 item 4), in the real workbench on the embedded backend: the model
// (a workspace scenario file) hands two reads to two subagents and waits for both. Each shows folded in the
// spawn_agent card that started it — its id and type, its task, done, one call — and opens to its read_file
// card and its answer; the wait card says both answered, with their first lines; none of the subagents' calls
// or answers is an entry of the conversation; after Developer: Reload Window the cards are the same. The
// wire log shows each subagent's requests on its own lane of the chat's one socket. A running subagent's own
// Stop (on its header) stops it alone: its card says stopped and the task goes on to its answer. Screenshots
// in test-artifacts/workbench/subagents/.

const SUBAGENT_ARTIFACTS = path.join(ARTIFACTS, 'subagents');

const call = (name: string, args: Record<string, unknown>) => ({ type: 'function_call', name, arguments: args });
const waitFor = (...outputs: number[]) =>
  call('wait', { ids: outputs.map((n) => `{{output.${n}.agent_id}}`), timeout_ms: 60_000 });

const SCENARIOS = {
  scenarios: [
    {
      name: 'split',
      match: '^split the reading$',
      steps: [
        {
          output: [
            call('spawn_agent', { message: 'helper cart reads src/cart.js', agent_type: 'explorer' }),
            call('spawn_agent', { message: 'helper shipping reads config/shipping.json' }),
          ],
        },
        { output: [waitFor(1, 2)] },
        { output: [waitFor(1, 2)] },
        { output: [{ type: 'message', text: 'Both helpers read their files.' }] },
      ],
    },
    {
      name: 'stop-one',
      match: '^hand a nap to a helper$',
      steps: [
        { output: [call('spawn_agent', { message: 'helper naps for a minute' })] },
        { output: [waitFor(1)] },
        { output: [{ type: 'message', text: 'The napping helper was stopped; going on without it.' }] },
      ],
    },
    { name: 'napper', match: '^helper naps', steps: [{ output: [call('exec_command', { cmd: 'sleep 60' })] }] },
    {
      name: 'helper',
      match: '^helper (?<name>\\w+) reads (?<file>\\S+)$',
      steps: [
        { output: [call('read_file', { path: '{{file}}' })] },
        { output: [{ type: 'message', text: '{{name}}: read {{file}}' }] },
      ],
    },
  ],
};

interface WireLine {
  conn?: string;
  dir?: string;
  type?: string;
  /** The request as received (the window logs bodies with LOOPWIRE_WIRE_LOG). */
  body?: { stream_id?: string };
}

describe('Loopwire in the VS Code workbench: subagents nested under their spawn cards', function () {
  this.timeout(240_000);
  let workbench: Workbench;
  const wireDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-subagents-wire-'));
  const wireFile = path.join(wireDir, 'wire.jsonl');

  before(() => (process.env['LOOPWIRE_WIRE_LOG'] = wireFile));
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(wireDir, { recursive: true, force: true });
  });

  useWorkbench((started) => (workbench = started), {
    artifacts: SUBAGENT_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'subagent-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      const settings = {
        'loopwire.endpoint': 'embedded',
        'loopwire.scenarioFiles': ['subagent-scenarios.json'],
        'loopwire.model': 'gpt-5.5',
      };
      fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    },
  });

  const shot = (name: string) => workbench.screenshot(name, { sidebar: true });
  const wire = (): WireLine[] =>
    (fs.existsSync(wireFile) ? fs.readFileSync(wireFile, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WireLine);

  /** The two spawn cards' subagents, as their headers read. */
  const headers = async (panel: Frame) =>
    (await panel.locator('.subagent-header').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());

  it('two subagents show folded in their spawn cards, open to their calls and answers, and come back after a reload', async () => {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill('split the reading');
    await box.press('Enter');
    await panel.locator('.entry.assistant', { hasText: 'Both helpers read their files.' }).waitFor({ timeout: 90_000 });
    await shot('1-done-folded');

    const shown = await headers(panel);
    assert.equal(shown.length, 2, shown.join('\n'));
    assert.match(shown[0] ?? '', /^[0-9a-f]{8} · explorer helper cart reads src\/cart\.js done 1 call$/);
    assert.match(shown[1] ?? '', /^[0-9a-f]{8} helper shipping reads config\/shipping\.json done 1 call$/);
    // Nothing of theirs is the conversation's own: its tool entries are the parent's four calls.
    const names = await panel.locator('.entry.tool > .tool-card > .tool-header .tool-name').allInnerTexts();
    assert.deepEqual(names, ['spawn_agent', 'spawn_agent', 'wait', 'wait']);
    assert.equal(await panel.locator('.entry.assistant', { hasText: 'cart: read' }).count(), 0);

    const cart = panel.locator('.subagent').first();
    await cart.locator('.subagent-header').click();
    const nested = cart.locator('.subagent-body .tool-card');
    await nested.first().waitFor();
    assert.equal(await nested.locator('.tool-name').innerText(), 'read_file');
    assert.equal((await nested.locator('.tool-summary').innerText()).trim(), 'src/cart.js');
    assert.equal((await cart.locator('.subagent-answer .markdown').innerText()).trim(), 'cart: read src/cart.js');
    await cart.scrollIntoViewIfNeeded();
    await shot('2-opened');
    const waited = panel.locator('.waited').last().locator('.waited-agent');
    assert.deepEqual(
      (await waited.allInnerTexts()).map((text) =>
        text
          .replace(/\s+/g, ' ')
          .replace(/^[0-9a-f]{8} /, '')
          .trim(),
      ),
      ['answered cart: read src/cart.js', 'answered shipping: read config/shipping.json'],
    );
    await waited.last().scrollIntoViewIfNeeded();
    await shot('3-wait-card');

    // One socket: each subagent's requests on its own lane of the chat's connection.
    const creates = wire().filter((line) => line.dir === 'in' && line.type === 'response.create');
    const lanes = new Set(creates.map((line) => line.body?.stream_id ?? ''));
    assert.equal([...lanes].filter((lane) => lane.startsWith('subagent-')).length, 2, [...lanes].join(', '));
    assert.equal(new Set(creates.map((line) => line.conn)).size, 1, 'one connection');

    await workbench.reload();
    const reloaded = await workbench.panel();
    await reloaded.locator('.subagent-header').first().waitFor({ timeout: 60_000 });
    await until('both subagents shown again', async () => ((await headers(reloaded)).length === 2 ? true : undefined));
    assert.deepEqual(await headers(reloaded), shown);
    await shot('4-reloaded');
    assert.deepEqual(workbench.pageErrors, []);
  });

  it("a running subagent's own Stop stops it alone, and the task goes on", async () => {
    const panel = await workbench.panel();
    const box = panel.locator('textarea.prompt');
    await box.fill('hand a nap to a helper');
    await box.press('Enter');
    const napper = panel.locator('.subagent', { hasText: 'helper naps for a minute' });
    const stop = napper.locator('.subagent-stop');
    // Its command runs (or waits for an approval, by the mode): either way the subagent runs, with its Stop.
    await napper.locator('.subagent-header', { hasText: '1 call' }).waitFor({ timeout: 90_000 });
    // The card is drawn anew at each of its steps: nothing is held of it but its locator.
    await shot('5-running-with-stop');
    await stop.click();
    await panel
      .locator('.entry.assistant', { hasText: 'The napping helper was stopped; going on without it.' })
      .waitFor({ timeout: 60_000 });
    const header = (await napper.locator('.subagent-header').innerText()).replace(/\s+/g, ' ').trim();
    assert.match(header, /helper naps for a minute stopped 1 call$/);
    assert.equal(await stop.count(), 0, 'no Stop once it stopped');
    const waited = await panel.locator('.waited').last().locator('.waited-state').allInnerTexts();
    assert.deepEqual(waited, ['closed'], "the parent's wait: closed");
    await shot('6-stopped');
    assert.deepEqual(workbench.pageErrors, []);
  });
});
