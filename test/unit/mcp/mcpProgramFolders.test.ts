import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { type McpServerConfig, programFolders } from '../../../src/mcp';
import { planWrites } from '../../../src/sandbox/writePlan';
import { makeRepo, removeDir, requireBwrap, runFileConfined, workspaceWrite } from '../sandbox/harness';

// A server the user chose to run from a folder in the host's /tmp (a clone there, a script unpacked there):
// the sandbox gives every confined program a private /tmp, which hid the server's own files, so it never
// started (the MCP suites failed in a clone under /tmp). Its package folder is now shown to it, read only.

type Stdio = McpServerConfig & { type: 'stdio' };
const server = (command: string, args: string[], cwd: string): Stdio => ({
  name: 'tmp',
  type: 'stdio',
  command,
  args,
  env: {},
  cwd,
});

describe('mcp: a server whose files are in the host’s /tmp sees them in the sandbox', function () {
  let temp: string;
  let workspace: string;
  beforeEach(() => {
    temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-mcp-program-')));
    fs.mkdirSync(path.join(temp, 'pkg', 'src'), { recursive: true });
    fs.writeFileSync(path.join(temp, 'pkg', 'package.json'), '{"name":"pkg"}\n');
    fs.writeFileSync(path.join(temp, 'pkg', 'src', 'server.mjs'), "console.log('read ' + 'my own files');\n");
    workspace = makeRepo('mcp-program');
  });
  afterEach(() => {
    removeDir(temp);
    removeDir(workspace);
  });

  it('names the package folder of each absolute path in the host’s /tmp, and nothing else', () => {
    const script = path.join(temp, 'pkg', 'src', 'server.mjs');
    assert.deepEqual(programFolders(server(process.execPath, [script, '--flag', 'relative.mjs'], workspace)), [
      path.join(temp, 'pkg'),
      workspace,
    ]);
    // Inside a shell line, as a config writes `sh -c 'touch x && exec node /tmp/…/server.mjs'`.
    const line = server('sh', ['-c', `touch started && exec node ${script}`], '/');
    assert.deepEqual(programFolders(line), [path.join(temp, 'pkg')]);
    // No package mark above it: its own folder only, never the whole /tmp.
    fs.rmSync(path.join(temp, 'pkg', 'package.json'));
    assert.deepEqual(programFolders(server(process.execPath, [script], '/')), [path.join(temp, 'pkg', 'src')]);
    assert.deepEqual(programFolders(server('/usr/bin/env', ['node', '-e', '0'], '/')), []);
  });

  it('reads such a folder in the plan, and writes it only where it is a workspace folder', () => {
    const pkg = path.join(temp, 'pkg');
    const plan = planWrites({ ...workspaceWrite([workspace]), readable: [pkg, path.join(workspace, 'sub')] });
    assert.deepEqual(plan.readOnly, [pkg], 'read only; a folder inside a workspace folder is shown by it already');
    assert.ok(plan.writable.includes(workspace) && !plan.writable.includes(pkg));
  });

  it('runs a script of the host’s /tmp in bwrap, which cannot write there', async function () {
    requireBwrap(this);
    const script = path.join(temp, 'pkg', 'src', 'server.mjs');
    const confinement = {
      ...workspaceWrite([workspace], true),
      readable: programFolders(server('node', [script], workspace)),
    };
    const ran = await runFileConfined(process.execPath, [script], workspace, confinement);
    assert.equal(ran.output.trim(), 'read my own files');
    assert.equal(ran.code, 0);
    const wrote = await runFileConfined(
      'sh',
      ['-c', `echo x > ${path.join(temp, 'pkg', 'planted.js')}`],
      workspace,
      confinement,
    );
    assert.notEqual(wrote.code, 0, ran.output);
    assert.equal(fs.existsSync(path.join(temp, 'pkg', 'planted.js')), false);
    // A config naming the ssh agent's socket in /tmp shows its folder, never the socket: it stays hidden.
    const socket = path.join(temp, 'pkg', 'agent.1');
    const agent = net.createServer().listen(socket);
    await new Promise((resolve) => agent.once('listening', resolve));
    try {
      const env = { ...process.env, SSH_AUTH_SOCK: socket };
      const named = {
        ...workspaceWrite([workspace], true),
        readable: programFolders(server('node', [socket], workspace)),
      };
      const probe = await runFileConfined(
        'sh',
        ['-c', `test -S ${socket} && echo reachable || echo hidden`],
        workspace,
        named,
        env,
      );
      assert.equal(probe.output.trim(), 'hidden');
    } finally {
      agent.close();
    }
    // Without it, the private /tmp hides the script: what failed before.
    const hidden = await runFileConfined(process.execPath, [script], workspace, workspaceWrite([workspace], true));
    assert.match(hidden.output, /Cannot find module/);
  });
});
