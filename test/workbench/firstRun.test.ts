import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyDemo } from './codeServer';
import { type LoggingEndpoint, type TokenServer, startLoggingEndpoint, startTokenServer } from './endpoints';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, type WorkbenchOptions } from './workbench';

// A real endpoint, first time (issue 41, item 7), in the real workbench with Loopwire installed from its
// packaged .vsix by code-server's --install-extension, as a user installs it.

const FIRST_RUN_ARTIFACTS = path.join(ARTIFACTS, 'first-run');
const TOKEN = `sk-first-run-${Date.now().toString(36)}`;

describe('Loopwire from its .vsix in the VS Code workbench: a real endpoint, first time', function () {
  this.timeout(120_000);
  let workbench: Workbench;
  let tokenServer: TokenServer;
  let logging: LoggingEndpoint;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-first-run-'));
  const options: WorkbenchOptions = {
    install: 'vsix',
    artifacts: FIRST_RUN_ARTIFACTS,
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
  useWorkbench((started) => (workbench = started), options);
  after(async () => {
    await tokenServer?.close();
    await logging?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is installed from its .vsix by code-server, and the panel names the user’s endpoint', async () => {
    // What --install-extension unpacks: the package's manifest beside the extension, the production bundles,
    // and nothing .vscodeignore leaves out (no source maps, no CLI bins).
    assert.ok(fs.existsSync(path.join(workbench.extension, '.vsixmanifest')), 'installed from a .vsix');
    const dist = fs.readdirSync(path.join(workbench.extension, 'dist'));
    assert.ok(dist.includes('extension.js') && dist.includes('session.js') && dist.includes('webview.js'));
    assert.deepEqual(
      dist.filter((file) => file.endsWith('.map') || file === 'cli'),
      [],
    );
    const panel = await workbench.panel();
    const backend = panel.locator('.welcome .welcome-backend');
    await backend.waitFor();
    assert.equal((await backend.innerText()).trim(), `Endpoint: ${tokenServer.host}`);
    await workbench.screenshot('installed', { sidebar: true });
  });
});
