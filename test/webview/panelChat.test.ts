import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BackendInfo, ChatEntry, HostMessage } from '../../src/protocol/chatView';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The conversation as people live in it (issue 21): prompts sent during a run wait at the end, marked
// queued; a "Working…" row whenever the agent runs with nothing visibly moving; an empty chat that says
// what to ask and which backend answers; prompts rendered as markdown.

const user = (id: string, text: string, queued?: boolean): ChatEntry => ({
  kind: 'user',
  id,
  text,
  ...(queued === undefined ? {} : { queued }),
});
const answer = (id: string, text: string, streaming = false): ChatEntry => ({ kind: 'assistant', id, text, streaming });
const tool = (id: string, status: Extract<ChatEntry, { kind: 'tool' }>['status']): ChatEntry => ({
  kind: 'tool',
  id,
  turn: 1,
  name: 'run_task',
  summary: 'npm: test',
  status,
});

const OFFLINE: BackendInfo = { label: 'built-in offline backend', offline: true };

describe('chat panel in Chromium: queued prompts, the working row, the welcome, prompts as markdown', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  function state(entries: ChatEntry[], running: boolean, backend?: BackendInfo): HostMessage {
    return {
      type: 'state',
      sessionId: 'chat',
      entries,
      hasOlder: false,
      running,
      banner: null,
      ...(backend ? { backend } : {}),
    };
  }

  /** The transcript's rows in order: an entry's id, or the class of another row (`working`, `welcome`). */
  async function rows(panel: Panel): Promise<string[]> {
    const out: string[] = [];
    for (const row of await panel.page.locator('.transcript > *').all())
      out.push((await row.getAttribute('data-id')) ?? (await row.getAttribute('class')) ?? '');
    return out;
  }

  async function send(panel: Panel, ...messages: HostMessage[]): Promise<void> {
    for (const message of messages) panel.post(message);
    await panel.delivered();
  }

  it('a queued prompt stays after everything else, marked, and moves to its place once it runs', async () => {
    const panel = await chromium.open('dark');
    await send(
      panel,
      state([user('u1', 'Fix the failing test.'), user('u2', 'Then rename it.', true), tool('t1', 'running')], true),
    );
    assert.deepEqual(await rows(panel), ['u1', 't1', 'u2'], 'queued last, whatever the order sent');
    const queued = panel.page.locator('.entry.user[data-id="u2"]');
    assert.equal(await queued.locator('.queued-mark').innerText(), 'Queued');
    assert.equal(await queued.getAttribute('aria-label'), 'Queued prompt: runs after the current task');
    assert.equal(await panel.page.locator('.entry.user[data-id="u1"] .queued-mark').count(), 0);

    // New entries of the running task go in before the queued prompts; a second queued prompt after the first.
    await send(
      panel,
      { type: 'entry', entry: tool('t1', 'done') },
      { type: 'entry', entry: answer('a1', 'Fixed: the discount was applied twice.') },
      { type: 'entry', entry: user('u3', 'And update the changelog.', true) },
      { type: 'entry', entry: tool('t2', 'done') },
    );
    assert.deepEqual(await rows(panel), ['u1', 't1', 'a1', 't2', 'working', 'u2', 'u3']);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'dark-queued-working.png') });

    // Its turn: the host sends it again, not queued, and it runs.
    await send(panel, { type: 'entry', entry: user('u2', 'Then rename it.', false) });
    assert.deepEqual(await rows(panel), ['u1', 't1', 'a1', 't2', 'u2', 'working', 'u3']);
    assert.equal(await panel.page.locator('.entry.user[data-id="u2"] .queued-mark').count(), 0);
    await send(panel, { type: 'entry', entry: answer('a2', '', true) }, { type: 'text', id: 'a2', delta: 'Renamed.' });
    assert.deepEqual(await rows(panel), ['u1', 't1', 'a1', 't2', 'u2', 'a2', 'u3']);
  });

  it('shows “Working…” while the agent runs between events, never over visible progress or an approval', async () => {
    const panel = await chromium.open('dark');
    const working = panel.page.locator('.transcript > .working');
    const isWorking = async () => (await working.count()) === 1;
    await send(panel, state([user('u1', 'Fix the failing test.')], false));
    assert.equal(await isWorking(), false, 'not running');

    await send(panel, { type: 'running', running: true });
    assert.equal(await isWorking(), true, 'sent, nothing back yet');
    assert.equal(await working.getAttribute('role'), 'status');
    assert.equal(await working.innerText(), 'Working…');
    assert.equal(await working.locator('.codicon-loading.codicon-modifier-spin').count(), 1);

    const steps: [ChatEntry | { text: string }, boolean, string][] = [
      [answer('a1', '', true), true, 'an answer begun with no text yet shows nothing'],
      [{ text: 'Let me run the tests.' }, false, 'the answer streams'],
      [answer('a1', 'Let me run the tests.'), true, 'the answer ended: between events'],
      [tool('t1', 'streaming'), false, 'the call is being written'],
      [tool('t1', 'approval'), false, 'waiting for the user, not working'],
      [tool('t1', 'running'), false, 'the card says running'],
      [tool('t1', 'failed'), true, 'the tool finished, the next response has not come'],
      [{ kind: 'thinking', id: 'r1', text: 'The total', streaming: true }, false, 'thinking streams'],
      [{ kind: 'thinking', id: 'r1', text: 'The total is off.', streaming: false }, true, 'thinking done'],
    ];
    for (const [step, expected, why] of steps) {
      if ('kind' in step) panel.post({ type: 'entry', entry: step });
      else panel.post({ type: 'text', id: 'a1', delta: step.text });
      await panel.delivered();
      assert.equal(await isWorking(), expected, why);
    }
    assert.equal(await rows(panel).then((r) => r.at(-1)), 'working', 'at the end of the transcript');
    await send(panel, { type: 'running', running: false });
    assert.equal(await isWorking(), false, 'the task ended');

    // A state mid-run with nothing moving shows it at once.
    await send(panel, state([user('u1', 'Fix it.'), tool('t1', 'done')], true));
    assert.equal(await isWorking(), true);
  });

  it('an empty chat shows what Loopwire does, example prompts and the backend, after New chat too', async () => {
    const panel = await chromium.open('light');
    const welcome = panel.page.locator('.transcript > .welcome');
    await send(panel, state([], false, OFFLINE));
    assert.match(await welcome.locator('.welcome-intro').innerText(), /Loopwire/);
    const examples = welcome.getByRole('group', { name: 'Example prompts' }).getByRole('button');
    assert.deepEqual(await examples.allInnerTexts(), [
      'Fix the failing test.',
      'Explain how the cart total is computed.',
      'Add a test for applyDiscount.',
    ]);
    assert.equal(
      await welcome.locator('.welcome-backend').innerText(),
      'Offline: the built-in scripted backend — nothing leaves this machine.',
    );

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await panel.page.screenshot({ path: path.join(ARTIFACTS, 'light-welcome.png') });
    await panel.clearPosted();
    await examples.nth(1).click();
    const prompt = panel.page.getByRole('textbox', { name: 'Ask Loopwire' });
    assert.equal(await prompt.inputValue(), 'Explain how the cart total is computed.');
    assert.equal(
      await panel.page.evaluate('document.activeElement?.getAttribute("aria-label")'),
      'Ask Loopwire',
      'the prompt box has the focus',
    );
    assert.deepEqual(await panel.posted(), [], 'chosen, not sent');

    await send(panel, state([user('u1', 'Fix the failing test.')], true));
    assert.equal(await welcome.count(), 0, 'gone once the chat has entries');
    // New chat: a state with no entries and no backend again; the backend named before still shows.
    await send(panel, state([], false));
    assert.match(await welcome.locator('.welcome-backend').innerText(), /^Offline: /);
    await send(panel, state([], false, { label: 'api.example.com', offline: false }));
    assert.equal(await welcome.locator('.welcome-backend').innerText(), 'Endpoint: api.example.com');
    await send(panel, { type: 'entry', entry: user('u2', 'Hello') });
    assert.equal(await welcome.count(), 0, 'gone with the first prompt');
  });

  it('a prompt renders as markdown: Explain Selection’s code block, no raw fences', async () => {
    const panel = await chromium.open('dark');
    const text = 'Explain `total` in src/cart.js, lines 10–14:\n\n```js\nconst total = sum(items);\nreturn total;\n```';
    await send(panel, state([user('u1', text)], false));
    const bubble = panel.page.locator('.entry.user .bubble');
    assert.equal(await bubble.locator('pre code').textContent(), 'const total = sum(items);\nreturn total;\n');
    assert.equal(await bubble.locator('p code').innerText(), 'total');
    assert.doesNotMatch(await bubble.innerText(), /```/);
    assert.match(await bubble.innerText(), /^Explain total in src\/cart\.js, lines 10–14:/);
  });
});
