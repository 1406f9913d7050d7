import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { copyDemo } from './codeServer';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// Steering a running task from the queue (issue 38, items 1–2), in the real workbench: while the model is
// held back mid-answer (a workspace scenario file with a stall), a message typed and sent waits as a chip;
// Steer hands it to the running task, and it lands in the conversation as "Steered" where it took effect.
// On gpt-6 it goes natively over the socket (the embedded backend's wire log shows `response.steer`, the
// response ended `incomplete`/`steered` and its successor answers); on gpt-5.5 it waits for the next tool
// boundary (after the read's output) and no `response.steer` is sent. Screenshots in
// test-artifacts/workbench/steer/.

const STEER_ARTIFACTS = path.join(ARTIFACTS, 'steer');
/**
 * The model is held back mid-response (time to type, queue, look and press Steer) until the test writes the
 * scenario's release file (`release`), this at most: a fixed wait had to be sized for the slowest machine.
 */
const HELD_MS = 120_000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-steer-'));
const release = (name: string) => path.join(scratch, `release-${name}`);

const words = (count: number, word: string) =>
  Array.from({ length: count }, (_, index) => `${word}${index % 10}`).join(' ');

const SCENARIOS = {
  scenarios: [
    {
      name: 'plan',
      match: '^plan the trip$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 8, ms: HELD_MS, until_file: release('plan') },
          output: [
            { type: 'message', text: `Route: ${words(12, 'road')}` },
            { type: 'message', text: `Sights: ${words(12, 'sight')}` },
          ],
        },
      ],
    },
    {
      name: 'hotels',
      match: '^only hotels$',
      steps: [{ output: [{ type: 'message', text: 'Hotels only: Lisbon.' }] }],
    },
    {
      name: 'notes',
      match: '^tidy the notes$',
      steps: [
        {
          fault: { kind: 'stall', after_events: 8, ms: HELD_MS, until_file: release('notes') },
          output: [
            { type: 'message', text: 'Reading the README first.' },
            { type: 'function_call', name: 'read_file', arguments: { path: 'README.md' } },
          ],
        },
        { output: [{ type: 'message', text: 'The notes are tidy.' }] },
      ],
    },
    {
      name: 'museums',
      match: '^only museums$',
      steps: [{ output: [{ type: 'message', text: 'Museums only: Porto.' }] }],
    },
  ],
};

/** A line of the embedded backend's wire log. */
interface WireLine {
  dir?: string;
  type?: string;
}

describe('Loopwire in the VS Code workbench: steering a running task from the queue', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  const wireFile = path.join(scratch, 'wire.jsonl');

  // The embedded backend writes its wire log where this says (set before the workbench starts).
  before(() => (process.env['LOOPWIRE_WIRE_LOG'] = wireFile));
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  useWorkbench((started) => (workbench = started), {
    artifacts: STEER_ARTIFACTS,
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, 'steer-scenarios.json'), JSON.stringify(SCENARIOS, null, 2));
      const settings = {
        'loopwire.endpoint': 'embedded',
        'loopwire.scenarioFiles': ['steer-scenarios.json'],
        'loopwire.model': 'gpt-6',
      };
      fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    },
  });

  const wire = (): WireLine[] =>
    (fs.existsSync(wireFile) ? fs.readFileSync(wireFile, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WireLine);
  const shot = (name: string) => workbench.screenshot(name, { sidebar: true });

  /** The conversation as shown: `kind: text` per entry (a steered one as `steered: text`). */
  const conversation = async (panel: Frame): Promise<string[]> => {
    const entries = panel.locator('.entry');
    const shown: string[] = [];
    for (let index = 0; index < (await entries.count()); index++) {
      const entry = entries.nth(index);
      const classes = ((await entry.getAttribute('class')) ?? '').split(/\s+/);
      const kind = classes.includes('steered')
        ? 'steered'
        : (['user', 'assistant', 'tool'].find((name) => classes.includes(name)) ?? 'other');
      shown.push(`${kind}: ${(await entry.innerText()).replace(/\s+/g, ' ').trim()}`);
    }
    return shown;
  };

  /** Where the entry `kind: text…` is shown (its kind, then its text somewhere in it), or -1. */
  const indexOf = (shown: readonly string[], prefix: string) => {
    const [kind = '', text = ''] = prefix.split(': ');
    return shown.findIndex((line) => line.startsWith(`${kind}:`) && line.includes(text));
  };

  /**
   * Sends `prompt`, waits until its answer streams and stops (the model held back), then types and sends
   * `steer` (a chip) and presses its Steer: screenshots of each step, named `prefix-…`.
   */
  async function steerWhileHeld(panel: Frame, prompt: string, first: string, steer: string, prefix: string) {
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
    await panel.locator('.entry.assistant', { hasText: first }).waitFor({ timeout: 60_000 });
    await shot(`${prefix}-1-running`);
    await box.fill(steer);
    await box.press('Enter');
    const chip = panel.locator('.queue-chip', { hasText: steer });
    await chip.waitFor();
    assert.equal(await panel.locator('.entry.user', { hasText: steer }).count(), 0, 'queued, not in the conversation');
    await shot(`${prefix}-2-queued`);
    await chip.getByRole('button', { name: 'Steer' }).click();
    await panel.locator('.queue-chip.steering', { hasText: steer }).waitFor();
    await shot(`${prefix}-3-steering`);
  }

  it('gpt-6: Steer goes natively over the socket (response.steer), and lands as Steered before the successor’s answer', async () => {
    const panel = await workbench.panel();
    await until('the model picker on gpt-6', async () =>
      (await panel.locator('select[aria-label="Model"]').inputValue()) === 'gpt-6' ? true : undefined,
    );
    await steerWhileHeld(panel, 'plan the trip', 'Route:', 'only hotels', 'native');
    // The model goes on once the backend holds the steer: it takes it at the next boundary.
    await until('the steer accepted', () =>
      wire().some((line) => line.dir === 'out' && line.type === 'response.steer.accepted') ? true : undefined,
    );
    fs.writeFileSync(release('plan'), '');
    await panel.locator('.entry.assistant', { hasText: 'Hotels only: Lisbon.' }).waitFor({ timeout: 60_000 });
    await until('the task ended', async () => ((await panel.locator('.queue-chip').count()) === 0 ? true : undefined));
    await shot('native-4-landed');
    const shown = await conversation(panel);
    const at = (prefix: string) => indexOf(shown, prefix);
    assert.ok(at('user: plan the trip') >= 0, shown.join('\n'));
    assert.ok(at('assistant: Route:') > at('user: plan the trip'), shown.join('\n'));
    assert.ok(at('steered: ') > at('assistant: Route:'), `the steer after the answer it cut: ${shown.join('\n')}`);
    assert.match(shown[at('steered: ')] ?? '', /only hotels/);
    assert.ok(at('assistant: Hotels only') > at('steered: '), shown.join('\n'));
    assert.equal(shown.filter((line) => line.includes('only hotels')).length, 1, 'shown once');
    assert.equal(at('assistant: Sights:'), -1, 'the steered response ended before its second message');

    // The log names each frame's type (a steer's line its target, not its text).
    const lines = wire();
    const count = (dir: string, type: string) => lines.filter((line) => line.dir === dir && line.type === type).length;
    assert.equal(count('in', 'response.steer'), 1, 'one response.steer');
    assert.equal(count('out', 'response.steer.accepted'), 1);
    assert.equal(count('out', 'response.incomplete'), 1, 'the steered response ended incomplete');
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('gpt-5.5: Steer waits for the next tool boundary and lands after the read’s output; no response.steer', async () => {
    const panel = await workbench.panel();
    await panel.locator('select[aria-label="Model"]').selectOption('gpt-5.5');
    await until('the model picker on gpt-5.5', async () =>
      (await panel.locator('select[aria-label="Model"]').inputValue()) === 'gpt-5.5' ? true : undefined,
    );
    const before = wire().filter((line) => line.type === 'response.steer').length;
    await workbench.page.locator('.part.sidebar .title-actions .action-label[aria-label^="New Chat"]').first().click();
    await until('a new chat', async () => ((await panel.locator('.entry').count()) === 0 ? true : undefined));
    await steerWhileHeld(panel, 'tidy the notes', 'Reading the README', 'only museums', 'boundary');
    // The host holds the steer (the chip says so): the model goes on to the read, where it is taken.
    fs.writeFileSync(release('notes'), '');
    await panel.locator('.entry.assistant', { hasText: 'Museums only: Porto.' }).waitFor({ timeout: 60_000 });
    await shot('boundary-4-landed');
    const shown = await conversation(panel);
    const at = (prefix: string) => indexOf(shown, prefix);
    assert.ok(at('tool: ') > at('assistant: Reading the README'), shown.join('\n'));
    assert.ok(at('steered: ') > at('tool: '), `the steer after the read: ${shown.join('\n')}`);
    assert.match(shown[at('steered: ')] ?? '', /only museums/);
    assert.ok(at('assistant: Museums only') > at('steered: '), shown.join('\n'));
    assert.equal(shown.filter((line) => line.includes('only museums')).length, 1, 'shown once');
    assert.equal(wire().filter((line) => line.type === 'response.steer').length, before, 'no response.steer');
    assert.deepEqual(workbench.pageErrors, []);
  });
});
