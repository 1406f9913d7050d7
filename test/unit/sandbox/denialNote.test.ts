import * as assert from 'node:assert/strict';
import { type SandboxPolicy, denialNote } from '../../../src/sandbox';
import { makeRepo, removeDir, requireBwrap, runConfined, runFileConfined, workspaceWrite } from './harness';

// The line the model reads when the sandbox, not the command, made a command fail. The recorded outputs
// below were printed by the real programs inside `bwrap --unshare-net` and a read-only mount on Linux (curl,
// git, npm, node, python, pip, wget, ssh, sh, coreutils); the last suite prints them again, live.

const off: SandboxPolicy = { mode: 'workspace-write', network: false };
const on: SandboxPolicy = { mode: 'workspace-write', network: true };
const escalate = /call exec_command again with sandbox_permissions "require_escalated" and a justification/;

describe('sandbox: the note on a refused command', () => {
  const writes: [string, RegExp][] = [
    ['sh: 1: cannot create /etc/x: Read-only file system', /writing \/etc\/x is outside the writable folders/],
    ["touch: cannot touch '/root/.x': Read-only file system", /writing \/root\/\.x is outside/],
    ['mkdir: cannot create directory ‘/home/x’: Read-only file system', /writing \/home\/x is outside/],
    ["Error: EROFS: read-only file system, open '/etc/y'", /writing \/etc\/y is outside/],
    ["OSError: [Errno 30] Read-only file system: '/etc/z'", /writing \/etc\/z is outside/],
    [
      "fatal: Unable to create '/work/repo/.git/index.lock': Read-only file system",
      /writing \/work\/repo\/\.git\/index\.lock: \.git stays read-only inside the workspace/,
    ],
    ['sh: 1: cannot create .vscode/settings.json: Read-only file system', /\.vscode stays read-only/],
    ["cp: cannot create regular file '.github/hooks/x': Read-only file system", /\.github\/hooks stays read-only/],
    ['error: Read-only file system (os error 30)', /writing a file outside the writable folders/],
  ];
  for (const [output, note] of writes) {
    it(`names the path of: ${output}`, () => {
      const said = denialNote(`some output\n${output}\n`, off) ?? '';
      assert.match(said, /^The sandbox \(workspace-write, network off\) refused this: /);
      assert.match(said, note);
      assert.match(said, escalate);
    });
  }

  it('says nothing is writable in read-only', () => {
    const said = denialNote("touch: cannot touch 'a.txt': Read-only file system", {
      mode: 'read-only',
      network: false,
    });
    assert.match(
      said ?? '',
      /\(read-only, network off\) refused this: writing a\.txt: in read-only nothing is writable/,
    );
  });

  const network = [
    "fatal: unable to access 'https://github.com/openai/codex/': Could not resolve host: github.com",
    'curl: (6) Could not resolve host: example.com',
    "curl: (7) Failed to connect to 1.1.1.1 port 80 after 0 ms: Couldn't connect to server",
    'urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>',
    'urllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>',
    'npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
    'TypeError: fetch failed Error: connect ENETUNREACH 1.1.1.1:80 - Local (0.0.0.0:0)',
    'Connecting to 1.1.1.1:80... failed: Network is unreachable.',
    'ssh: Could not resolve hostname github.com: Temporary failure in name resolution',
    "WARNING: Retrying (Retry(total=0)) after connection broken by 'NewConnectionError(... [Errno -3] Temporary failure in name resolution')",
  ];
  for (const output of network) {
    it(`recognises the network off in: ${output.slice(0, 70)}`, () => {
      const said = denialNote(output, off) ?? '';
      assert.match(said, /refused this: reaching the network, which is off \(“.+”\)\. If the task needs it/);
      assert.equal(denialNote(output, on), undefined, 'with the network on, a failed lookup is the network’s own');
    });
  }

  it('recognises the host’s loopback out of reach', () => {
    const said = denialNote('Error: connect ECONNREFUSED 127.0.0.1:8080', off);
    assert.match(said ?? '', /connecting to 127\.0\.0\.1: the sandbox has a network of its own/);
  });

  it('recognises a hidden credential store', () => {
    const said = denialNote('cat: /home/me/.ssh/id_ed25519: No such file or directory', off);
    assert.match(said ?? '', /reading \/home\/me\/\.ssh\/id_ed25519: the user's credential stores are hidden/);
  });

  it('says when the sandbox itself could not start', () => {
    const said = denialNote("bwrap: Can't chdir to /gone: No such file or directory", off);
    assert.match(said ?? '', /refused this: starting it: bwrap: Can't chdir/);
  });

  it('reads macOS’s EPERM as a refusal there only', () => {
    const output = 'touch: /Users/me/x: Operation not permitted';
    assert.match(denialNote(output, off, 'darwin') ?? '', /writing \/Users\/me\/x is outside/);
    assert.equal(denialNote(output, off, 'linux'), undefined);
  });

  it('stays silent on an ordinary failure, and in full access', () => {
    assert.equal(denialNote('AssertionError: expected 2 to equal 3\n1 failing', off), undefined);
    assert.equal(denialNote('cat: missing.txt: No such file or directory', off), undefined);
    assert.equal(
      denialNote('sh: 1: cannot create /etc/x: Read-only file system', { mode: 'danger-full-access', network: true }),
      undefined,
    );
  });
});

describe('sandbox (bwrap): the note on what the real programs print', function () {
  this.timeout(60_000);
  let repo: string;

  before(function () {
    requireBwrap(this);
    repo = makeRepo('denial');
  });
  after(() => repo && removeDir(repo));

  it('for a write outside, into .git, and a git commit', async () => {
    const outside = await runConfined('echo x > /etc/loopwire-denied', repo, workspaceWrite([repo]));
    assert.match(
      denialNote(outside.output, off) ?? '',
      /writing \/etc\/loopwire-denied is outside the writable folders/,
    );
    const commit = await runConfined('git commit -q --allow-empty -m x', repo, workspaceWrite([repo]));
    assert.match(denialNote(commit.output, off) ?? '', /\.git stays read-only inside the workspace/);
  });

  it('for node’s fetch and git with the network off', async () => {
    const fetch = await runFileConfined(
      process.execPath,
      ['-e', "fetch('https://example.com').catch((e) => { console.error(String(e.cause)); process.exit(1); })"],
      repo,
      workspaceWrite([repo]),
    );
    assert.match(denialNote(fetch.output, off) ?? '', /reaching the network, which is off \(“EAI_AGAIN”\)/);
    const git = await runConfined('git ls-remote https://github.com/openai/codex', repo, workspaceWrite([repo]));
    assert.match(denialNote(git.output, off) ?? '', /reaching the network, which is off \(“Could not resolve host”\)/);
  });
});
