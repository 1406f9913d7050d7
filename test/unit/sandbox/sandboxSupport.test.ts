import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  SandboxUnavailableError,
  confineSpawn,
  sandboxSupport,
  withoutLoopwireKeys,
  withoutSecrets,
} from '../../../src/sandbox';
import { confineWith } from '../../../src/sandbox/confineSpawn';

// Where there is no sandbox, nothing meant to be confined runs: confineSpawn throws, saying why and how to
// get one. LOOPWIRE_SANDBOX=off makes this machine such a one, so the fallback is tested here too; and the
// environment a command gets has no key in any policy.

const spec = { file: 'sh', args: ['-c', 'true'], cwd: '/', env: { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-x' } };
const workspaceWrite = { policy: { mode: 'workspace-write' as const, network: false }, roots: ['/'] };

describe('sandbox: support and the fallback', () => {
  const given = process.env['LOOPWIRE_SANDBOX'];
  afterEach(() => {
    if (given === undefined) delete process.env['LOOPWIRE_SANDBOX'];
    else process.env['LOOPWIRE_SANDBOX'] = given;
  });

  it('is off, saying so, with LOOPWIRE_SANDBOX=off; and confining then throws', () => {
    process.env['LOOPWIRE_SANDBOX'] = 'off';
    const support = sandboxSupport();
    assert.deepEqual(support, { available: false, reason: 'The sandbox is turned off by LOOPWIRE_SANDBOX=off.' });
    assert.throws(
      () => confineSpawn(spec, workspaceWrite),
      (error: unknown) => {
        assert.ok(error instanceof SandboxUnavailableError);
        assert.match(error.message, /must run in the sandbox, which is not available: .*LOOPWIRE_SANDBOX=off/);
        return true;
      },
    );
  });

  it('says there is none on Windows yet', () => {
    const support = sandboxSupport('win32');
    assert.equal(support.available, false);
    assert.match(support.available ? '' : support.reason, /no sandbox for commands on Windows yet/);
  });

  it('names bwrap’s absence, and how to install it', () => {
    const error = new SandboxUnavailableError('bubblewrap (bwrap) is not installed.', 'install bubblewrap');
    assert.equal(
      error.message,
      'This command must run in the sandbox, which is not available: bubblewrap (bwrap) is not installed. To get one: install bubblewrap.',
    );
    assert.throws(
      () => confineWith({ available: false, reason: 'Not here.', hint: 'h' }, spec, workspaceWrite),
      /not available: Not here\. To get one: h\./,
    );
  });

  it('runs danger-full-access as it is, without a sandbox and without Loopwire’s key', () => {
    process.env['LOOPWIRE_SANDBOX'] = 'off';
    const env = { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-x', GH_TOKEN: 'gh', LOOPWIRE_SERVER_TOKEN: 't' };
    const confined = confineSpawn(
      { ...spec, env },
      { policy: { mode: 'danger-full-access', network: true }, roots: [] },
    );
    assert.equal(confined.file, 'sh');
    assert.deepEqual(confined.args, ['-c', 'true']);
    assert.deepEqual(confined.env, { PATH: '/usr/bin', GH_TOKEN: 'gh' });
  });

  it('finds bwrap on Linux, or says why not', function () {
    if (process.platform !== 'linux') this.skip();
    const support = sandboxSupport('linux');
    if (support.available) assert.equal(support.mechanism, 'bwrap');
    else assert.match(support.reason, /bubblewrap/);
  });
});

describe('sandbox: secrets kept out of a command’s environment', () => {
  it('drops keys, tokens, passwords, credentials and agent sockets; keeps the rest', () => {
    const env = {
      OPENAI_API_KEY: '1',
      AZURE_OPENAI_API_KEY: '1',
      LOOPWIRE_SERVER_TOKEN: '1',
      LOOPWIRE_KEY: '1',
      ANTHROPIC_API_KEY: '1',
      STRIPE_SECRET_KEY: '1',
      GH_TOKEN: '1',
      GITHUB_TOKEN: '1',
      NPM_TOKEN: '1',
      npm_config__authToken: '1',
      AWS_SECRET_ACCESS_KEY: '1',
      AWS_SESSION_TOKEN: '1',
      DB_PASSWORD: '1',
      GOOGLE_APPLICATION_CREDENTIALS: '1',
      SSH_AUTH_SOCK: '1',
      VSCODE_IPC_HOOK_CLI: '/run/user/1000/vscode-ipc-1.sock',
      VSCODE_GIT_IPC_HANDLE: '/run/user/1000/vscode-git-1.sock',
      GIT_ASKPASS: '/usr/share/code/resources/app/extensions/git/dist/askpass.sh',
      VSCODE_GIT_ASKPASS_MAIN: '1',
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      KEYBOARD: 'us',
      TOKENIZERS_PARALLELISM: 'false',
      NODE_OPTIONS: '--max-old-space-size=4096',
    };
    assert.deepEqual(withoutSecrets(env), {
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      KEYBOARD: 'us',
      TOKENIZERS_PARALLELISM: 'false',
      NODE_OPTIONS: '--max-old-space-size=4096',
    });
  });

  it('in full access drops only Loopwire’s own keys', () => {
    assert.deepEqual(withoutLoopwireKeys({ OPENAI_API_KEY: '1', LOOPWIRE_API_KEY: '1', GH_TOKEN: 'x', PATH: '/bin' }), {
      GH_TOKEN: 'x',
      PATH: '/bin',
    });
  });
});

describe('sandbox: confining with Seatbelt (macOS), as far as Linux can tell', () => {
  it('wraps the command in sandbox-exec with its profile, a private TMPDIR removed after, no key', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-seatbelt-')));
    try {
      const support = { available: true as const, mechanism: 'seatbelt' as const, program: '/usr/bin/sandbox-exec' };
      const confined = confineWith(support, { ...spec, cwd: root }, { ...workspaceWrite, roots: [root] });
      assert.equal(confined.file, '/usr/bin/sandbox-exec');
      assert.equal(confined.args[0], '-p');
      assert.ok(confined.args.includes(`WRITABLE_ROOT_0=${root}`));
      assert.deepEqual(confined.args.slice(-4), ['--', 'sh', '-c', 'true']);
      const tmp = confined.env['TMPDIR'] ?? '';
      assert.ok(confined.args.includes(`PRIVATE_TMP=${tmp}`) && fs.statSync(tmp).isDirectory());
      assert.equal(confined.env['OPENAI_API_KEY'], undefined);
      // The host's temp folder is hidden, except where the workspace itself lives in it (as here).
      assert.ok(!confined.args.some((arg) => /^HIDDEN_\d+=/.test(arg) && root.startsWith(arg.split('=')[1] ?? '')));
      confined.cleanup();
      assert.equal(fs.existsSync(tmp), false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
