import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { confineSpawn } from '../../../src/sandbox';
import { makeRepo, removeDir, requireBwrap, runConfined, runFileConfined, until, workspaceWrite } from './harness';

// What a confined command can see and reach beyond the files: the host's processes (Loopwire's own
// /proc/<pid>/environ holds the key), its own environment, the user's credential stores, the host's loopback
// servers; and that a confined command stopped as the adapters stop one (a signal to its process group)
// leaves nothing running.

const SECRET = 'sk-test-secret';

function pgrep(marker: string): string {
  return spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim();
}

describe('sandbox (bwrap): what a confined command may see and reach', function () {
  this.timeout(30_000);
  let repo: string;

  before(function () {
    requireBwrap(this);
    repo = makeRepo();
  });
  after(() => repo && removeDir(repo));

  it('sees no process of the host in /proc, this one’s environ included', async () => {
    const run = await runConfined(
      `ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n' ' '; echo; cat /proc/${process.pid}/environ; echo status=$?`,
      repo,
      workspaceWrite([repo]),
    );
    const pids = (run.output.split('\n')[0] ?? '').trim().split(' ').map(Number);
    assert.ok(pids.length > 0 && pids.every((pid) => pid < 10), `pids seen: ${pids.join(' ')}`);
    assert.match(run.output, /No such file or directory/);
    assert.match(run.output, /status=1/);
  });

  it('has the key in no readable environment, nor on bwrap’s command line', async () => {
    const env = { ...process.env, OPENAI_API_KEY: SECRET, GITHUB_TOKEN: SECRET, KEEP_ME: 'kept' };
    const run = await runConfined(
      'env; cat /proc/1/environ; cat /proc/self/environ; cat /proc/$$/environ; cat /proc/1/cmdline',
      repo,
      workspaceWrite([repo]),
      env,
    );
    assert.match(run.output, /KEEP_ME=kept/);
    assert.equal(run.output.includes(SECRET), false, run.output);
    assert.equal(run.confined.args.join(' ').includes(SECRET), false);
  });

  it('cannot read the credential stores of the user’s home (the HOME given, and this process’s)', async () => {
    // The given home sits outside /tmp's hiding, as a real one would: under /var/tmp.
    const home = fs.mkdtempSync('/var/tmp/loopwire-home-');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY');
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws/credentials'), 'aws_secret_access_key = SECRETAWS');
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x password SECRETNETRC');
    fs.writeFileSync(path.join(home, 'notes.txt'), 'readable');
    const ownSsh = path.join(os.homedir(), '.ssh');
    try {
      const run = await runConfined(
        'cat ~/.ssh/id_ed25519; ls -a ~/.ssh; cat ~/.aws/credentials; cat ~/.netrc; cat ~/notes.txt; ' +
          `echo key > ~/.ssh/authorized_keys; echo OWN; ls -A '${ownSsh}'; true`,
        repo,
        workspaceWrite([repo]),
        { ...process.env, HOME: home },
      );
      assert.match(run.output, /readable/);
      for (const secret of ['PRIVATE KEY', 'SECRETAWS', 'SECRETNETRC'])
        assert.equal(run.output.includes(secret), false);
      assert.equal(fs.existsSync(path.join(home, '.ssh/authorized_keys')), false);
      const own = run.output.slice(run.output.indexOf('OWN\n') + 4).trim();
      assert.ok(own === '' || /No such file/.test(own), `${ownSsh} listed inside: ${own}`);
    } finally {
      removeDir(home);
    }
  });

  it('cannot reach a loopback server of the host with the network off, and can with it on', async function () {
    const server = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const client = `const s = require('net').connect(${port}, '127.0.0.1');
      s.on('data', (d) => process.stdout.write(d)); s.on('error', (e) => { console.log(e.message); process.exit(3); });`;
    try {
      const off = await runFileConfined(process.execPath, ['-e', client], repo, workspaceWrite([repo], false));
      assert.equal(off.code, 3, off.output);
      assert.match(off.output, /ECONNREFUSED/);
      const on = await runFileConfined(process.execPath, ['-e', client], repo, workspaceWrite([repo], true));
      assert.equal(on.code, 0, on.output);
      assert.match(on.output, /hello from the host/);
    } finally {
      server.close();
    }
  });

  /** Starts `script` confined, detached as the adapters start a command; `ready` once it wrote that file. */
  function startSleeper(marker: string) {
    const ready = path.join(repo, `${marker}.ready`);
    const script = `sh -c 'sleep 300; echo ${marker}' & echo > '${ready}'; sleep 300; echo ${marker}`;
    const confined = confineSpawn(
      { file: 'sh', args: ['-c', script], cwd: repo, env: process.env },
      workspaceWrite([repo]),
    );
    const child = spawn(confined.file, confined.args, {
      cwd: repo,
      env: confined.env,
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid ?? 0), signal);
      } catch {
        // The group is empty already.
      }
    };
    return { confined, exited, group, ready: () => fs.existsSync(ready) };
  }

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`leaves nothing running once its process group is sent ${signal}`, async () => {
      const marker = `loopwire-sleeper-${randomUUID()}`;
      const sleeper = startSleeper(marker);
      await until(sleeper.ready, 10_000, 'the sleepers');
      sleeper.group(signal);
      await sleeper.exited;
      await until(() => pgrep(marker) === '', 5000, 'every confined process to end');
      sleeper.confined.cleanup();
    });
  }

  it('leaves nothing running when stopped while the sandbox was still being set up', async () => {
    // As taskProcess.ts stops a command: SIGTERM to the group, then SIGKILL to it once the process has exited.
    const marker = `loopwire-early-${randomUUID()}`;
    const sleeper = startSleeper(marker);
    sleeper.group('SIGTERM');
    await sleeper.exited;
    sleeper.group('SIGKILL');
    await until(() => pgrep(marker) === '', 5000, 'every confined process to end');
    sleeper.confined.cleanup();
  });

  it('has no controlling terminal: none of the user’s terminals can be written into (TIOCSTI)', async () => {
    const run = await runConfined('ls /dev/pts; exec 3<>/dev/tty && echo HAS-A-TTY', repo, workspaceWrite([repo]));
    assert.equal(run.output.includes('HAS-A-TTY'), false, run.output);
    assert.match(run.output, /No such device or address/);
    assert.match(run.output, /^ptmx$/m, 'a pts of its own, none of the host’s');
  });

  it('ends with whoever started it, even when that one is killed outright', async () => {
    const marker = `loopwire-orphan-${randomUUID()}`;
    const ready = path.join(repo, `${marker}.ready`);
    const confined = confineSpawn(
      { file: 'sh', args: ['-c', `echo > '${ready}'; sleep 300; echo ${marker}`], cwd: repo, env: process.env },
      workspaceWrite([repo]),
    );
    // A parent that starts the sandbox and is then SIGKILLed, as Loopwire would be if it crashed.
    const start = `require('child_process').spawn(${JSON.stringify(confined.file)}, ${JSON.stringify(confined.args)}, { stdio: 'ignore' }); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', start], { env: confined.env, cwd: repo, stdio: 'ignore' });
    await until(() => fs.existsSync(ready), 10_000, 'the confined sleeper');
    parent.kill('SIGKILL');
    await until(() => pgrep(marker) === '', 5000, 'the sleeper to end with its parent');
    confined.cleanup();
  });
});
