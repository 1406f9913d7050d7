import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { sandboxInForce } from '../../../src/agent';
import {
  MCP_POLICY,
  type McpSandbox,
  type McpServerConfig,
  type McpServers,
  mcpSandbox,
  startMcpServers,
  unconfinedNote,
} from '../../../src/mcp';
import { sandboxSupport } from '../../../src/sandbox';
import { BUILTIN_TOOLS, ReadLedger, runToolCall } from '../../../src/tools';
import type { Workspace } from '../../../src/workspace';
import { makeRepo, removeDir, requireBwrap, until } from '../sandbox/harness';
import { alive } from '../support/processAlive';
import { repoRoot } from '../support/runProcess';
import { PROBE_SERVER } from './mcpFixtures';

// A stdio MCP server in the OS sandbox, against real bubblewrap: the probe server (fixtures/probeServer.mjs)
// tries what a hostile one would — write outside the workspace and into the user's home, read ~/.ssh and
// Loopwire's own /proc/PID/environ, leave a daemon behind — and what an honest one needs: its own env, the
// network (a loopback listener of the host), a package cache. Each outcome is asserted; then the way it
// ends (closed, or Loopwire killed) leaves no process, and a start that fails names the sandbox.

const context = { workspace: {} as Workspace, reads: new ReadLedger() };
const KEY = 'sk-loopwire-must-not-leak';

/** Every process below `pid` (from /proc: Linux only, as bwrap is). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents)
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

/** The probe's processes below this one: bwrap's tree, found by the probe's script on a command line. */
function probeTrees(root = process.pid): number[] {
  const bwraps = descendants(root).filter((pid) => {
    const cmdline = (
      fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') : ''
    ).split('\0');
    return cmdline[0]?.endsWith('bwrap') === true && cmdline.includes(PROBE_SERVER);
  });
  return bwraps.flatMap((pid) => [pid, ...descendants(pid)]);
}

describe('mcp: a stdio server in the sandbox (real bubblewrap)', function () {
  this.timeout(30_000);
  let workspace: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let servers: McpServers | undefined;
  let log: string[];

  before(function () {
    requireBwrap(this);
    workspace = makeRepo('mcp-sandbox');
    // A home outside /tmp (which the sandbox replaces anyway), as a real one is: under /var/tmp.
    home = fs.realpathSync(fs.mkdtempSync('/var/tmp/loopwire-mcp-home-'));
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY');
    fs.writeFileSync(path.join(home, '.bashrc'), '# the user’s\n');
    const { XDG_CACHE_HOME: _unused, ...inherited } = process.env;
    env = { ...inherited, HOME: home, OPENAI_API_KEY: KEY, GITHUB_TOKEN: 'inherited-token' };
  });
  after(() => {
    if (workspace) removeDir(workspace);
    if (home) removeDir(home);
  });
  afterEach(async () => {
    await servers?.close();
    servers = undefined;
  });

  const probe = (own: Record<string, string | null> = {}): McpServerConfig => ({
    name: 'probe',
    type: 'stdio',
    command: process.execPath,
    args: [PROBE_SERVER],
    env: own,
    cwd: workspace,
  });
  const confined = (): McpSandbox =>
    mcpSandbox({ mode: 'workspace-write', network: false }, sandboxSupport(), [workspace]);
  const start = async (sandbox: McpSandbox, ...configs: McpServerConfig[]) => {
    log = [];
    servers = await startMcpServers(configs.length ? configs : [probe()], {
      log: (line) => log.push(line),
      sandbox,
      env,
    });
    return servers;
  };
  const call = async (tool: string, args: object = {}): Promise<string> => {
    const registry = BUILTIN_TOOLS.with(servers?.tools ?? []);
    const name = `mcp__probe__${tool}`;
    return (await runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context, registry)).output;
  };

  it('writes the workspace and its own cache; not the home folder, the user’s caches, .git or elsewhere', async () => {
    await start(confined());
    assert.equal(
      await call('write', { path: path.join(workspace, 'out.txt') }),
      `wrote ${path.join(workspace, 'out.txt')}`,
    );
    for (const outside of [
      path.join(home, '.bashrc'),
      path.join(home, 'planted.txt'),
      path.join(workspace, '.git', 'config'),
      path.join(repoRoot, 'package.json'),
    ])
      assert.match(await call('write', { path: outside }), /^failed: EROFS/, outside);
    // The model is told it was the sandbox, and that only the user can let the server out.
    assert.match(
      await call('write', { path: path.join(home, '.profile') }),
      /^failed: EROFS [^\n]*\n\(The MCP server 'probe' runs in the sandbox \(workspace-write, network on\), and the sandbox refused this: writing .*\/\.profile is outside the writable folders\. It runs outside the sandbox only in the approval mode all, which only the user can choose: tell the user rather than retry\.\)$/,
    );
    assert.equal(fs.readFileSync(path.join(home, '.bashrc'), 'utf8'), '# the user’s\n');
    assert.equal(fs.existsSync(path.join(home, 'planted.txt')), false);
    // npx's cache is the server's own, under ~/.cache/loopwire/mcp; the user's ~/.npm is not writable.
    const cache = (await call('env', { name: 'npm_config_cache' })).replace(/^npm_config_cache=/, '');
    assert.match(cache, new RegExp(`^${home}/\\.cache/loopwire/mcp/probe-[0-9a-f]{12}/npm$`));
    fs.mkdirSync(cache, { recursive: true });
    assert.match(await call('write', { path: path.join(cache, 'index') }), /^wrote /);
    assert.match(await call('write', { path: path.join(home, '.npm', 'index') }), /^failed: (EROFS|ENOENT)/);
  });

  it('reads no credential store and not Loopwire’s own environment; the key is nowhere in its env', async () => {
    await start(confined());
    const ssh = await call('read', { path: path.join(home, '.ssh/id_ed25519') });
    assert.match(ssh, /^failed: ENOENT/);
    const environ = await call('read', { path: `/proc/${process.pid}/environ` });
    assert.doesNotMatch(environ, new RegExp(KEY));
    assert.match(environ, /^failed: ENOENT/, 'its own /proc shows no process of the host');
    assert.equal(await call('env', { name: 'OPENAI_API_KEY' }), 'OPENAI_API_KEY=(unset)');
  });

  it('gets its own env as written (a token included), not the secrets Loopwire inherited', async () => {
    await start(confined(), probe({ MCP_TOKEN: 'the-users-own-token', GITHUB_TOKEN: null, PATH_EXTRA: 'x' }));
    assert.equal(await call('env', { name: 'MCP_TOKEN' }), 'MCP_TOKEN=the-users-own-token');
    assert.equal(await call('env', { name: 'GITHUB_TOKEN' }), 'GITHUB_TOKEN=(unset)');
    assert.equal(await call('env', { name: 'HOME' }), `HOME=${home}`);
    assert.equal(await call('env', { name: 'PATH' }), `PATH=${process.env.PATH ?? ''}`);
    await servers?.close();
    await start(confined());
    assert.equal(await call('env', { name: 'GITHUB_TOKEN' }), 'GITHUB_TOKEN=(unset)', 'inherited: withheld');
  });

  it('reaches the network: a loopback listener of the host answers', async () => {
    const listener = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      await start(confined());
      const port = (listener.address() as net.AddressInfo).port;
      assert.equal(await call('connect', { port }), 'connected: hello from the host');
    } finally {
      listener.close();
    }
  });

  it('closed, it leaves no process (a daemon it started included) and no mount point', async () => {
    await start(confined());
    assert.match(await call('daemon'), /^started \d+$/);
    const tree = probeTrees();
    assert.ok(tree.length >= 3, `bwrap, the server and its daemon: ${tree.join(' ')}`);
    await servers?.close();
    servers = undefined;
    for (const pid of tree) await until(() => !isRunning(pid), 5_000, `${pid} gone`);
    for (const pid of tree) assert.equal(await alive(pid), false, `${pid} still runs`);
    // The empty folders made to hold .vscode and the like read-only go once no run uses them (3 s later).
    await until(() => !fs.existsSync(path.join(workspace, '.vscode')), 8_000, 'the mount points removed');
  });

  it('dies with Loopwire: a host killed with SIGKILL leaves no process of its server', async () => {
    const host = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, 'fixtures/mcpHost.ts'), PROBE_SERVER, workspace],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    host.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    host.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await until(() => /ready \d+/.test(out), 20_000, `the host's server (${out})`);
    assert.match(out, /ready 5/, out);
    const tree = probeTrees(host.pid);
    assert.ok(tree.length >= 2, `bwrap and the server: ${tree.join(' ')}`);
    host.kill('SIGKILL');
    for (const pid of tree) await until(() => !isRunning(pid), 5_000, `${pid} gone with its host`);
  });

  it('npx -y starts a packaged server, its download in its own cache; the user’s ~/.npm it cannot write', async function () {
    this.timeout(90_000);
    // A package of the probe (no dependency to fetch: the test has no registry), as npx -y runs one.
    const pkg = path.join(home, 'probe-package');
    fs.mkdirSync(pkg, { recursive: true });
    const bin = { 'loopwire-probe': 'bin.mjs' };
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'loopwire-probe', version: '1.0.0', bin }));
    fs.writeFileSync(
      path.join(pkg, 'bin.mjs'),
      // The probe named on its command line, as the user's config would name a script: where the clone is under
      // the host's /tmp, that is what lets the sandbox show it (mcpSandbox.ts, programFolders).
      '#!/usr/bin/env node\nawait import(process.argv[2]);\n',
    );
    fs.chmodSync(path.join(pkg, 'bin.mjs'), 0o755);
    // A tarball, as from a registry (a folder would be linked, not installed).
    const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', home], { cwd: pkg, encoding: 'utf8' });
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = path.join(home, packed.stdout.trim());
    const npx = (own: Record<string, string> = {}) => ({
      ...probe(own),
      command: 'npx',
      args: ['-y', `--package=${tarball}`, 'loopwire-probe', PROBE_SERVER],
    });
    const { servers: states } = await start(confined(), npx());
    assert.equal(states[0]?.error, undefined);
    assert.match(await call('write', { path: path.join(workspace, 'from-npx.txt') }), /^wrote /);
    const caches = path.join(home, '.cache/loopwire/mcp');
    const own = fs.readdirSync(caches).filter((name) => fs.existsSync(path.join(caches, name, 'npm', '_npx')));
    assert.equal(own.length, 1, `npx's install is in the server's own cache: ${fs.readdirSync(caches).join(' ')}`);
    assert.equal(fs.existsSync(path.join(home, '.npm')), false, 'the user’s own npm cache untouched');
    await servers?.close();
    // Pointed at the user's own cache (its env wins), it cannot start, and says where it ran.
    const refused = await start(confined(), npx({ npm_config_cache: path.join(home, '.npm') }));
    assert.match(
      refused.servers[0]?.error ?? '',
      /could not be started [^]*\/\.npm\b[^]* It ran in the sandbox \(workspace-write, network on: it may write the workspace folders and its cache folder /,
    );
  });

  it('a start that fails in the sandbox says so: what it refused, and the way out', async () => {
    const writesHome = {
      ...probe(),
      name: 'stateful',
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(path.join(home, '.stateful'))}, 'x')`],
    };
    const missing = { ...probe(), name: 'missing', command: 'no-such-mcp-server-loopwire', args: [] };
    const { servers: states } = await start(confined(), writesHome, missing);
    assert.match(
      states[0]?.error ?? '',
      /^The MCP server 'stateful' could not be started \(.*\): it stopped before it was ready; its last words on stderr: [^]*EROFS[^]* It ran in the sandbox \(workspace-write, network on: it may write the workspace folders and its cache folder .*\/\.cache\/loopwire\/mcp\/stateful-[0-9a-f]+ only\), and the sandbox refused this: writing .*\.stateful is outside the writable folders\. An MCP server runs outside the sandbox only where commands do too: in the approval mode all/,
    );
    assert.match(
      states[1]?.error ?? '',
      /could not be started \(no-such-mcp-server-loopwire\): spawn no-such-mcp-server-loopwire ENOENT \(no such program in the sandbox\)[^]* It ran in the sandbox/,
    );
  });

  it('in full access (`all`) it runs unconfined, without Loopwire’s key; with no sandbox here it says so', async () => {
    await start(mcpSandbox(undefined, sandboxSupport(), [workspace]));
    const planted = path.join(home, 'planted-in-all.txt');
    assert.equal(await call('write', { path: planted }), `wrote ${planted}`);
    assert.equal(await call('env', { name: 'OPENAI_API_KEY' }), 'OPENAI_API_KEY=(unset)');
    assert.equal(await call('env', { name: 'GITHUB_TOKEN' }), 'GITHUB_TOKEN=inherited-token');
    assert.deepEqual(log, []);
    await servers?.close();
    const none = { available: false as const, reason: 'The sandbox is turned off by LOOPWIRE_SANDBOX=off.' };
    await start(mcpSandbox({ mode: 'workspace-write', network: false }, none, [workspace]));
    assert.deepEqual(log, [
      "MCP servers run unconfined, with the user's rights, as there is no sandbox here: The sandbox is turned off by LOOPWIRE_SANDBOX=off.",
    ]);
    assert.match(await call('read', { path: path.join(home, '.ssh/id_ed25519') }), /^read: PRIVATE KEY$/);
  });
});

/** Whether `pid` runs (not a zombie), from /proc, synchronously for `until`. */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('mcp: where a session’s stdio servers run', () => {
  const bwrap = { available: true as const, mechanism: 'bwrap' as const, program: '/usr/bin/bwrap' };
  const none = { available: false as const, reason: 'No bwrap.', hint: 'apt install bubblewrap' };
  const roots = ['/work/repo'];
  const choice = (chosen?: 'read-only' | 'workspace-write' | 'danger-full-access') => ({ chosen, support: bwrap });

  it('follows the commands: confined (workspace-write, network on) unless they have full access', () => {
    for (const mode of ['auto', 'ask', 'read-only', 'plan'] as const)
      assert.deepEqual(mcpSandbox(sandboxInForce(mode, choice()), bwrap, roots), { kind: 'confined', roots }, mode);
    assert.deepEqual(mcpSandbox(sandboxInForce('all', choice()), bwrap, roots), { kind: 'full-access' });
    assert.deepEqual(mcpSandbox(sandboxInForce('auto', choice('danger-full-access')), bwrap, roots), {
      kind: 'full-access',
    });
    assert.deepEqual(MCP_POLICY, { mode: 'workspace-write', network: true });
  });

  it('where there is no sandbox, runs them unconfined and says why and how to get one', () => {
    const sandbox = mcpSandbox(sandboxInForce('auto', { support: none }), none, roots);
    assert.deepEqual(sandbox, { kind: 'none', reason: 'No bwrap.', hint: 'apt install bubblewrap' });
    assert.equal(
      unconfinedNote(sandbox),
      "MCP servers run unconfined, with the user's rights, as there is no sandbox here: No bwrap. To have one, apt install bubblewrap.",
    );
    assert.equal(unconfinedNote({ kind: 'full-access' }), undefined);
  });
});
