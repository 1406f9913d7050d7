import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { ROOT, copyDemo } from './codeServer';
import { type LoggingEndpoint, type TokenServer, startLoggingEndpoint, startTokenServer } from './endpoints';
import { useWorkbench } from './suite';
import { useWireLog } from './wireLog';
import { ARTIFACTS, type Workbench, type WorkbenchOptions, until } from './workbench';

// A real endpoint, first time (issue 41, item 7), in the real workbench with Loopwire installed from its
// packaged .vsix by code-server's --install-extension, as a user installs it. The user's settings point
// `loopwire.endpoint` at the real `loopwire-server --token-file`, with no key stored; a logging endpoint at
// another origin records what reaches it. One workbench for the file: the walks run in order, each on what
// the one before left (the key stored, the workspace's answers). Screenshots go to
// test-artifacts/workbench/first-run/.

const FIRST_RUN_ARTIFACTS = path.join(ARTIFACTS, 'first-run');
const TOKEN = `sk-first-run-${Date.now().toString(36)}`;
/** The key the user gives the logging endpoint's origin, to see that each origin gets its own. */
const LOGGING_KEY = `sk-logging-${Date.now().toString(36)}`;
const ECHO_SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'echoServer.mjs');
/** What the workspace's MCP server writes in the workspace when it starts (the issue's `touch MCP-RAN`). */
const MARKER = 'MCP-RAN';

describe('Loopwire from its .vsix in the VS Code workbench: a real endpoint, first time', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  let tokenServer: TokenServer;
  let logging: LoggingEndpoint;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-first-run-'));
  const options: WorkbenchOptions = {
    install: 'vsix',
    artifacts: FIRST_RUN_ARTIFACTS,
    // The demo, without the pin to the embedded backend: the user's settings choose the endpoint.
    workspace: (folder) => {
      copyDemo(folder);
      fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), '{}\n');
    },
  };

  before(async () => {
    fs.mkdirSync(FIRST_RUN_ARTIFACTS, { recursive: true });
    tokenServer = await startTokenServer(dir, TOKEN, path.join(FIRST_RUN_ARTIFACTS, 'loopwire-server.log'));
    logging = await startLoggingEndpoint();
    options.userSettings = { 'loopwire.endpoint': tokenServer.url };
  });
  const requests = useWireLog();
  useWorkbench((started) => (workbench = started), options);
  after(async () => {
    await tokenServer?.close();
    // What reached the logging endpoint, for whoever reads the run's artefacts.
    if (logging)
      fs.writeFileSync(
        path.join(FIRST_RUN_ARTIFACTS, 'logging-endpoint.json'),
        `${JSON.stringify(logging.requests, null, 2)}\n`,
      );
    await logging?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const shot = (name: string) => workbench.screenshot(name, { sidebar: true });
  const quickInput = () => workbench.page.locator('.quick-input-widget');
  const dialog = () => workbench.page.locator('.monaco-dialog-box');
  const writeWorkspaceFile = (file: string, value: unknown) =>
    fs.writeFileSync(path.join(workbench.workspace, '.vscode', file), `${JSON.stringify(value, null, 2)}\n`);

  /**
   * Writes the workspace's settings.json and waits until the window has read it: the file also sets a reasoning
   * effort, which the composer's picker shows once VS Code's configuration (and so every listener of its
   * change, the backend's among them) has the new file.
   */
  async function workspaceSettings(panel: Frame, settings: Record<string, unknown>, effort: string): Promise<void> {
    writeWorkspaceFile('settings.json', { ...settings, 'loopwire.reasoningEffort': effort });
    const picker = panel.getByRole('combobox', { name: 'Reasoning effort', exact: true });
    await until(`the workspace's settings read (effort ${effort})`, async () =>
      (await picker.inputValue()) === effort ? true : undefined,
    );
  }

  async function send(panel: Frame, prompt: string): Promise<void> {
    const box = panel.locator('textarea.prompt');
    await box.fill(prompt);
    await box.press('Enter');
  }

  const running = async (panel: Frame) =>
    panel
      .locator('body.running')
      .count()
      .then((n) => n > 0);

  /** Waits until no task runs and `count` answers are shown. */
  async function answers(panel: Frame, count: number): Promise<void> {
    await until(
      `${count} answer(s), the task over`,
      async () =>
        !(await running(panel)) && (await panel.locator('.entry.assistant:not(.streaming)').count()) >= count
          ? true
          : undefined,
      60_000,
    );
  }

  /** The error lines of the conversation, once `count` are shown and the task is over. */
  async function errorLines(panel: Frame, count: number) {
    const lines = panel.locator('.entry.notice.error');
    await until(
      `${count} error line(s), the task over`,
      async () => ((await lines.count()) >= count && !(await running(panel)) ? true : undefined),
      60_000,
    );
    return lines;
  }

  /**
   * Through Set API Key…'s one question: the key for `host`'s origin (a plain-http origin is named with its
   * scheme: `originLabel` in src/agent/transport/endpointOrigin.ts); the origin settles that it goes as a Bearer token.
   */
  async function typeKey(host: string, key: string, screenshot?: string): Promise<void> {
    const title = quickInput().locator('.quick-input-title');
    await until(`the input box asking for the key of http://${host}`, async () =>
      (await quickInput().isVisible()) && (await title.innerText()).trim() === `Loopwire: API key for http://${host}`
        ? true
        : undefined,
    );
    const input = quickInput().locator('input[type="password"]');
    await input.pressSequentially(key);
    if (screenshot) await workbench.screenshot(screenshot);
    // The origin settles the header (Bearer here): the key is the only question.
    await input.press('Enter');
    await quickInput().waitFor({ state: 'hidden' });
  }

  it('is installed from its .vsix by code-server, and the panel names the user’s endpoint', async () => {
    // What --install-extension unpacks: the package's manifest beside the extension, the production bundles,
    // and nothing .vscodeignore leaves out (no source maps, no CLI bins).
    assert.ok(fs.existsSync(path.join(workbench.extension, '.vsixmanifest')), 'installed from a .vsix');
    const dist = fs.readdirSync(path.join(workbench.extension, 'dist'));
    assert.ok(dist.includes('extension.js') && dist.includes('runtime.js') && dist.includes('webview.js'));
    assert.deepEqual(
      dist.filter((file) => file.endsWith('.map') || file === 'cli'),
      [],
    );
    const panel = await workbench.panel();
    const backend = panel.locator('.welcome .welcome-backend');
    await backend.waitFor();
    assert.equal((await backend.innerText()).trim(), `Endpoint: ${tokenServer.host}`);
    await shot('installed');
  });

  it('first run: no key, one error line with its Set API Key… button, which asks for the key of the endpoint’s origin', async () => {
    const panel = await workbench.panel();
    await send(panel, 'find **/*.test.js');
    const lines = await errorLines(panel, 1);
    assert.equal(await lines.count(), 1, 'one error line');
    const sentence = (await lines.first().locator('.notice-text').innerText()).trim();
    // Advice for the front end it is shown in: VS Code's commands, not the CLI's variable and flags.
    assert.doesNotMatch(sentence, /OPENAI_API_KEY|loopwire exec|--/);
    const setKey = lines.first().getByRole('button', { name: 'Set API Key…' });
    assert.equal(await setKey.count(), 1, 'the line has its remedy');
    // Said once: the banner (where Retry is) does not say it again, nor does any other entry.
    const page = await panel.locator('body').innerText();
    assert.equal(page.split(sentence).length - 1, 1, `“${sentence}” is said once in the panel`);
    const retry = panel.locator('.banner-area').getByRole('button', { name: 'Retry' });
    assert.equal(await retry.count(), 1, 'Retry at hand');
    await shot('first-run-refused');

    await setKey.click();
    await typeKey(tokenServer.host, TOKEN, 'first-run-key');
  });

  it('Retry, once the key is set, finishes the task in the same chat, and the next prompt goes on the same conversation', async () => {
    const panel = await workbench.panel();
    await panel.locator('.banner-area').getByRole('button', { name: 'Retry' }).click();
    await answers(panel, 1);
    const prompts = panel.locator('.entry.user');
    assert.equal(await prompts.count(), 1, 'the same chat: the prompt once, not sent again as a new one');
    assert.equal((await prompts.first().innerText()).trim().split('\n')[0], 'find **/*.test.js');
    assert.ok((await panel.locator('.entry.tool').count()) >= 1, 'the task’s find_files ran');
    assert.equal(await panel.locator('.entry.notice.error').count(), 1, 'no new error: the session was mended');
    await shot('first-run-retried');

    // The next prompt in the same chat goes on the same conversation: its request chains from the answer.
    const before = tokenServer.requests().length;
    await send(panel, 'read src/cart.js');
    await answers(panel, 2);
    assert.equal(await prompts.count(), 2);
    const next = tokenServer.requests().slice(before);
    assert.ok(next.length > 0, 'the token server served the next prompt');
    assert.ok(
      next.every((request) => request.previous_response_id),
      `chained: ${JSON.stringify(next)}`,
    );
    await shot('first-run-next-prompt');
  });

  it('a workspace’s endpoint is asked about first: nothing reaches it before Use It, and requests go there after', async () => {
    await workbench.command('Loopwire: New Chat');
    const panel = await workbench.panel();
    await panel.locator('.welcome').waitFor();
    await workspaceSettings(panel, { 'loopwire.endpoint': logging.url }, 'low');
    await send(panel, 'find **/*.test.js');
    await dialog().waitFor({ timeout: 30_000 });
    assert.equal(
      (await dialog().locator('.dialog-message-text').innerText()).trim(),
      `This workspace sets Loopwire's endpoint to ${logging.url}. Use it?`,
    );
    const use = dialog().getByRole('button', { name: 'Use It', exact: true });
    assert.equal(await use.count(), 1);
    assert.equal(await dialog().getByRole('button', { name: 'Keep My Endpoint', exact: true }).count(), 1);
    await workbench.screenshot('consent-question');
    assert.deepEqual(logging.requests, [], 'nothing reached the workspace’s endpoint before the yes');

    await use.click();
    await until('requests at the workspace’s endpoint', () => (logging.requests.length > 0 ? true : undefined));
    // It refuses them all (401): the stop says so once, with the remedy.
    const lines = await errorLines(panel, 1);
    assert.equal(await lines.count(), 1);
    await lines.first().getByRole('button', { name: 'Set API Key…' }).waitFor();
    await shot('consent-used');
  });

  it('a key goes only to its own origin: the token server’s never reaches the logging endpoint', () => {
    const seen = () => logging.requests.map((request) => JSON.stringify(request.headers));
    assert.ok(logging.requests.length > 0);
    for (const request of logging.requests) {
      assert.equal(request.authorization, undefined, `no key is stored for it: ${request.method} ${request.path}`);
      assert.equal(request.apiKey, undefined);
    }
    assert.ok(!seen().some((headers) => headers.includes(TOKEN)), 'the token server’s key never sent there');
    assert.ok(
      logging.requests.some((request) => request.upgrade),
      'WebSocket upgrades were among them (their headers checked too)',
    );
  });

  it('the key set for the logging endpoint’s origin goes with its requests, and the other origin’s still never does', async () => {
    const seen = () => logging.requests.map((request) => JSON.stringify(request.headers));
    const panel = await workbench.panel();
    const before = logging.requests.length;
    await (await errorLines(panel, 1)).first().getByRole('button', { name: 'Set API Key…' }).click();
    await typeKey(logging.host, LOGGING_KEY);
    await panel.locator('.banner-area').getByRole('button', { name: 'Retry' }).click();
    await until('the retried requests at the logging endpoint', () =>
      logging.requests.length > before ? true : undefined,
    );
    await errorLines(panel, 2);
    const retried = logging.requests.slice(before);
    for (const request of retried) assert.equal(request.authorization, `Bearer ${LOGGING_KEY}`);
    assert.ok(!seen().some((headers) => headers.includes(TOKEN)), 'the token server’s key never sent there');
  });

  it('Keep My Endpoint: the task runs on the user’s endpoint, and the workspace’s gets nothing', async () => {
    const declined = await startLoggingEndpoint();
    try {
      await workbench.command('Loopwire: New Chat');
      const panel = await workbench.panel();
      await panel.locator('.welcome').waitFor();
      await workspaceSettings(panel, { 'loopwire.endpoint': declined.url }, 'medium');
      const before = tokenServer.requests().length;
      await send(panel, 'find **/*.test.js');
      await dialog().waitFor({ timeout: 30_000 });
      assert.equal(
        (await dialog().locator('.dialog-message-text').innerText()).trim(),
        `This workspace sets Loopwire's endpoint to ${declined.url}. Use it?`,
      );
      await dialog().getByRole('button', { name: 'Keep My Endpoint', exact: true }).click();
      await answers(panel, 1);
      assert.equal(await panel.locator('.entry.notice.error').count(), 0);
      assert.ok(tokenServer.requests().length > before, 'the user’s endpoint (the token server) ran the task');
      assert.deepEqual(declined.requests, [], 'nothing reached the declined endpoint');
      await shot('consent-declined');
    } finally {
      await declined.close();
    }
  });

  it('a workspace MCP server starts only after Start It; then its tools are offered to the model', async () => {
    const marker = path.join(workbench.workspace, MARKER);
    await workbench.command('Loopwire: New Chat');
    const panel = await workbench.panel();
    await panel.locator('.welcome').waitFor();
    // The embedded backend, whose wire log says what the model is offered (pinning it asks nothing).
    await workspaceSettings(panel, { 'loopwire.endpoint': 'embedded' }, 'high');
    writeWorkspaceFile('mcp.json', {
      servers: { echo: { type: 'stdio', command: 'sh', args: ['-c', `touch ${MARKER} && exec node ${ECHO_SERVER}`] } },
    });
    await send(panel, 'find **/*.test.js');
    await dialog().waitFor({ timeout: 30_000 });
    const question = await dialog().innerText();
    assert.match(question, /Start the MCP server 'echo'/);
    assert.ok(question.includes(`touch ${MARKER}`), `the command line shown: ${question}`);
    const start = dialog().getByRole('button', { name: 'Start It', exact: true });
    assert.equal(await start.count(), 1);
    await workbench.screenshot('mcp-question');
    assert.equal(fs.existsSync(marker), false, 'the server has not started before the yes');

    await start.click();
    await until('the marker the server writes as it starts', () => (fs.existsSync(marker) ? true : undefined));
    await answers(panel, 1);
    const offered = requests().flatMap((request) => (request.tools ?? []).map((tool) => tool.name));
    assert.ok(offered.includes('mcp__echo__say'), `the server's tools offered: ${offered.join(', ')}`);
    await shot('mcp-started');
    assert.deepEqual(workbench.pageErrors, []);
  });

  it('Select Endpoint… asks for the key of an origin that has none, then checks it: “Connected to … over WebSocket”', async () => {
    const secondDir = fs.mkdtempSync(path.join(dir, 'second-'));
    const secondToken = `${TOKEN}-second`;
    const second = await startTokenServer(secondDir, secondToken, path.join(FIRST_RUN_ARTIFACTS, 'second-server.log'));
    try {
      const panel = await workbench.panel();
      // The workspace pins no endpoint again: the user's choice decides.
      await workspaceSettings(panel, {}, 'low');
      await workbench.command('Loopwire: Select Endpoint…');
      const title = quickInput().locator('.quick-input-title');
      await until('Select Endpoint’s list', async () =>
        (await title.innerText()).trim() === 'Loopwire: Select Endpoint' ? true : undefined,
      );
      await quickInput().locator('.quick-input-list .monaco-list-row', { hasText: 'Other URL…' }).click();
      await until('the URL’s input box', async () =>
        (await title.innerText()).trim() === 'Loopwire: Responses API base URL' ? true : undefined,
      );
      const url = quickInput().locator('input.input');
      await url.fill(second.url);
      await url.press('Enter');
      await typeKey(second.host, secondToken);
      const toast = workbench.page.locator('.notifications-toasts .notification-toast', { hasText: 'Connected to' });
      await toast.waitFor({ timeout: 30_000 });
      assert.match(
        (await toast.locator('.notification-list-item-message').innerText()).trim(),
        new RegExp(`^Loopwire: Connected to http://${second.host.replace(/\./g, '\\.')} over WebSocket\\b`),
      );
      await workbench.screenshot('select-endpoint-connected');
      const settings = JSON.parse(fs.readFileSync(path.join(workbench.userData, 'User', 'settings.json'), 'utf8')) as {
        'loopwire.endpoint'?: string;
      };
      assert.equal(settings['loopwire.endpoint'], second.url, 'the choice is the user’s setting');
    } finally {
      await second.close();
    }
  });
});
