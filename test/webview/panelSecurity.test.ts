import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AgentEvent } from '../../src/agent';
import { ChatModel } from '../../src/extension/chat/chatModel';
import { ARTIFACTS, useChromium } from './chromium';
import type { Panel } from './panel';

// The panel's two defences, in real Chromium with the real CSP on. The CSP (default-src 'none', one
// nonce'd script) must hold for the page as built — and the detector that the other tests rely on to say
// "no violation" must be able to see one. And model text, file names, tool names, summaries and output are
// untrusted (issue 11): HTML and script in them must render as text or be stripped, never run.

/** Every payload sets this flag if it ever runs. */
const RUN = 'window.__pwned=1';

const HTML_PAYLOADS = [
  `<img src=x onerror="${RUN}">`,
  `<script>${RUN}</script>`,
  `<svg onload="${RUN}"><circle r="1"/></svg>`,
  `<iframe src="javascript:${RUN}"></iframe>`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `<a href="javascript:${RUN}">a link</a>`,
  `<details open ontoggle="${RUN}">x</details>`,
  `<input autofocus onfocus="${RUN}">`,
  `<object data="javascript:${RUN}"></object>`,
  `<form action="javascript:${RUN}"><button>go</button></form>`,
  `<style>body{background:red}</style><div style="color:red">styled</div>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
];

/** Model text: the HTML payloads, markdown's own ways to a link or an image, and raw HTML in code. */
const HOSTILE_MARKDOWN = [
  'Here is what I found.',
  ...HTML_PAYLOADS,
  '[x](javascript:alert(1)) and [y](JaVaScRiPt:window.__pwned=1) and [z](  javascript&#58;window.__pwned=1)',
  '[d](data:text/html,<script>parent.__pwned=1</script>) and [v](vbscript:msgbox(1))',
  '<javascript:window.__pwned=1> and javascript:window.__pwned=1',
  `![img](x" onerror="${RUN}) ![js](javascript:${RUN})`,
  '`<img src=x onerror="window.__pwned=1">` inline',
  '```html',
  `<script>${RUN}</script><img src=x onerror="${RUN}">`,
  '```',
  '- a list item <img src=x onerror="window.__pwned=1">',
].join('\n\n');

const HOSTILE_PATH = `"><img src=x onerror="${RUN}">.ts`;
const HOSTILE_NAME = `<svg onload="${RUN}">`;
const HOSTILE_OUTPUT = `${HTML_PAYLOADS.join('\n')}\n]]></pre><script>${RUN}</script>`;

/** Model text streamed in small pieces: every partial parse of the markdown is rendered once too. */
function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The hostile session, as agent events: what a compromised or confused model could make the agent emit. */
function hostileEvents(): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (const delta of chunks(HOSTILE_MARKDOWN, 9)) events.push({ type: 'text_delta', turn: 1, itemId: 'msg_1', delta });
  events.push({ type: 'message', turn: 1, text: HOSTILE_MARKDOWN });
  const patch = `*** Begin Patch\n*** Update File: ${HOSTILE_PATH}\n@@\n-<b>old</b>\n+<script>${RUN}</script>\n+<img src=x onerror="${RUN}">\n*** End Patch\n`;
  for (const delta of chunks(patch, 11))
    events.push({
      type: 'tool_call_delta',
      turn: 2,
      itemId: 'ctc_1',
      callId: 'call_patch',
      name: 'apply_patch',
      kind: 'custom',
      delta,
    });
  events.push({
    type: 'tool_started',
    turn: 2,
    callId: 'call_patch',
    name: 'apply_patch',
    kind: 'custom',
    input: patch,
  });
  events.push({
    type: 'tool_finished',
    turn: 2,
    callId: 'call_patch',
    name: 'apply_patch',
    ok: false,
    output: HOSTILE_OUTPUT,
    durationMs: 3,
  });
  const args = JSON.stringify({ path: HOSTILE_PATH });
  events.push({
    type: 'tool_call_delta',
    turn: 3,
    itemId: 'fc_1',
    callId: 'call_name',
    name: HOSTILE_NAME,
    kind: 'function',
    delta: args,
  });
  events.push({
    type: 'tool_started',
    turn: 3,
    callId: 'call_name',
    name: HOSTILE_NAME,
    kind: 'function',
    input: args,
  });
  events.push({
    type: 'tool_finished',
    turn: 3,
    callId: 'call_name',
    name: HOSTILE_NAME,
    ok: false,
    output: HOSTILE_OUTPUT,
    durationMs: 1,
  });
  // A stop is said by its `done` (the `error` before it is the same sentence); the fallback after it keeps its
  // hostile reason on the banner.
  const reason = HTML_PAYLOADS.join(' ');
  events.push({ type: 'error', code: 'x', message: reason });
  events.push({ type: 'done', status: 'failed', reason, code: 'x', turns: 1, toolCalls: 2, wallMs: 5 });
  events.push({ type: 'transport', state: 'http_fallback', transport: 'http', reason: HTML_PAYLOADS[0] });
  return events;
}

async function settle(panel: Panel): Promise<void> {
  await panel.delivered();
  // Long enough for an image's error, a frame's load or a focus to have fired a handler, had one survived.
  await new Promise((resolve) => setTimeout(resolve, 150));
  await panel.delivered();
}

describe('chat panel in Chromium: the CSP holds, and hostile input renders inert', function () {
  this.timeout(20_000);
  const chromium = useChromium();

  it('loads under chatHtml’s CSP: the nonce’d bundle runs, styles and the codicon font load, nothing is refused', async () => {
    const panel = await chromium.open('dark');
    const csp = await panel.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    const origin = chromium.server.origin;
    assert.match(
      csp ?? '',
      new RegExp(
        `^default-src 'none'; style-src ${origin}; font-src ${origin}; img-src ${origin} data:; script-src 'nonce-[A-Za-z0-9+/=]+'$`,
      ),
    );
    // `ready` came (Panel.open waits for it): the bundle ran. The toolbar's icons are the codicon font.
    assert.equal(await panel.page.getByRole('button', { name: 'History' }).count(), 1);
    const fonts = await panel.page.evaluate(
      'document.fonts.ready.then(() => [...document.fonts].filter((f) => f.family.includes("codicon")).map((f) => f.status))',
    );
    assert.deepEqual(fonts, ['loaded']);
    assert.equal(
      await panel.page.evaluate('getComputedStyle(document.body).backgroundColor'),
      'rgb(24, 24, 24)',
      'the theme and chat.css apply (the sidebar background of Dark Modern)',
    );
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.cspConsoleErrors(), []);
  });

  it('the detector sees a violation when there is one (negative control)', async () => {
    const panel = await chromium.open('dark');
    panel.expectViolations = true;
    await panel.page.evaluate(`(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__inline = 1';
      document.body.append(inline);
      const foreign = document.createElement('script');
      foreign.src = 'http://localhost:9/evil.js';
      document.body.append(foreign);
      document.body.setAttribute('style', 'color: red');
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__pwned = 1');
      img.src = 'data:,not-an-image';
      document.body.append(img);
    })()`);
    const deadline = Date.now() + 3_000;
    while ((await panel.violations()).length < 4 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const directives = (await panel.violations()).map((v) => v.directive).sort();
    assert.deepEqual(directives, ['script-src-attr', 'script-src-elem', 'script-src-elem', 'style-src-attr']);
    assert.equal(await panel.page.evaluate('window.__inline ?? window.__pwned'), undefined, 'nothing ran');
    assert.ok(panel.cspConsoleErrors().length >= 4, `Chromium logs each refusal: ${panel.cspConsoleErrors().length}`);
    assert.ok(
      (await panel.problems()).some((p) => p.startsWith('CSP violation')),
      'the after-each check would fail',
    );
  });

  it('model text, file names, tool names, summaries, output, notices and titles carrying HTML/script stay inert', async () => {
    const panel = await chromium.open('dark');
    const model = new ChatModel(panel.post, (file) =>
      Promise.resolve(file === HOSTILE_PATH ? `<b>old</b>\n<iframe src="javascript:${RUN}">\n` : undefined),
    );
    panel.post({ type: 'state', sessionId: 'hostile', entries: [], hasOlder: false, running: true, banner: null });
    model.addUser(`${HTML_PAYLOADS.join('\n')}\n[x](javascript:alert(1))`);
    for (const event of hostileEvents()) {
      model.handle(event);
      await new Promise((resolve) => setTimeout(resolve, event.type === 'tool_call_delta' ? 6 : 2));
    }
    panel.post({
      type: 'history',
      sessions: HTML_PAYLOADS.map((title, i) => ({ id: `s${i}`, title, createdAt: '2026-01-02T03:04:05.000Z' })),
    });
    panel.post({ type: 'focus', text: HTML_PAYLOADS.join('\n') });
    await settle(panel);
    model.dispose();

    const page = panel.page;
    assert.equal(await page.evaluate('window.__pwned'), undefined, 'no payload ran');
    assert.equal(await page.locator('xpath=//*[@*[starts-with(name(), "on")]]').count(), 0, 'no on* attribute');
    for (const element of await page.locator('[href], [src], [action], [data], [srcdoc]').all())
      for (const name of ['href', 'src', 'action', 'data', 'srcdoc'])
        assert.doesNotMatch((await element.getAttribute(name)) ?? '', /^\s*(javascript|vbscript|data):|<script/i);
    // The page's own folding elements (a tool's output, the plan above the composer) are not the payloads'.
    const ours = 'details:not(.tool-output):not(.plan-dock)';
    assert.equal(
      await page.locator(`body :is(iframe, object, embed, img, svg, math, form, input, style, ${ours})`).count(),
      0,
      'no active or styling element came from the payloads',
    );
    assert.equal(await page.locator('script').count(), 1, 'only the nonce’d bundle');
    assert.equal(await page.locator('[style]').count(), 0, 'no style attribute');

    // Shown as text where text was meant.
    const user = page.locator('.entry.user .bubble');
    assert.equal(await user.textContent(), `${HTML_PAYLOADS.join('\n')}\n[x](javascript:alert(1))`);
    const answer = page.locator('.entry.assistant .markdown');
    assert.match(
      (await answer.locator('pre code').textContent()) ?? '',
      /^\s*<script>window\.__pwned=1<\/script><img src=x/,
    );
    assert.match((await answer.textContent()) ?? '', /<img src=x onerror="window.__pwned=1">/, 'escaped, visible');
    const patch = page.locator('.entry.tool[data-id="call_patch"]');
    assert.equal(await patch.locator('.tool-summary').textContent(), HOSTILE_PATH);
    assert.equal(await patch.locator('.tool-status').textContent(), 'failed');
    assert.equal(await patch.locator('.tool-output pre').textContent(), HOSTILE_OUTPUT);
    const named = page.locator('.entry.tool[data-id="call_name"]');
    assert.equal(await named.locator('.tool-name').textContent(), HOSTILE_NAME);
    assert.equal(await named.locator('.tool-summary').textContent(), HOSTILE_PATH);
    assert.match((await page.locator('.banner-text').textContent()) ?? '', /Using HTTP fallback: <img src=x onerror=/);
    assert.match((await page.locator('.entry.notice.error').textContent()) ?? '', /^<img src=x onerror=/);
    assert.equal(await page.locator('.history li').count(), HTML_PAYLOADS.length);
    assert.equal(await page.getByRole('textbox', { name: 'Ask Loopwire' }).inputValue(), HTML_PAYLOADS.join('\n'));
    await page.screenshot({ path: path.join(ARTIFACTS, 'dark-hostile.png') });
  });

  it('a live diff of hostile file content shows the lines as text', async () => {
    const panel = await chromium.open('light');
    const line = `<img src=x onerror="${RUN}"><script>${RUN}</script>`;
    panel.post({
      type: 'state',
      sessionId: 'hostile-diff',
      hasOlder: false,
      running: false,
      banner: null,
      entries: [
        {
          kind: 'tool',
          id: 'call_diff',
          turn: 1,
          name: 'apply_patch',
          summary: HOSTILE_PATH,
          status: 'done',
          durationMs: 4,
          diff: [
            {
              path: HOSTILE_PATH,
              op: 'move',
              moveTo: `${HOSTILE_PATH}<iframe>`,
              pending: false,
              error: `Refused: ${line}`,
              states: { h1: 'applied' },
              hunks: [
                {
                  id: `h1" onclick="${RUN}`,
                  oldStart: 1,
                  oldLines: [line],
                  newStart: 1,
                  newLines: [`${line}!`],
                  contextBefore: [],
                  contextAfter: ['<b>after</b>'],
                },
              ],
            },
          ],
        },
      ],
    });
    await settle(panel);
    const page = panel.page;
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    assert.equal(await page.locator('xpath=//*[@*[starts-with(name(), "on")]]').count(), 0);
    assert.equal(await page.locator('body :is(img, iframe, b)').count(), 0);
    assert.deepEqual(await page.locator('.line .code').allTextContents(), [line, `${line}!`, '<b>after</b>']);
    assert.equal(await page.locator('.file-name').textContent(), `${HOSTILE_PATH} → ${HOSTILE_PATH}<iframe>`);
    assert.equal(await page.locator('.file-error').textContent(), `Refused: ${line}`);
    assert.equal(await page.locator('.hunk').getAttribute('data-hunk'), `h1" onclick="${RUN}`);
  });
});
