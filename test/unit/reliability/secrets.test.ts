import * as assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../../src/agent';
import { type LoopwireServer, type ScenarioFile, startServer } from '../../../src/server';
import { ReadLedger, toolsFor } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// The API key never appears in any output: real tasks (the agent against the server in-process, and the
// built `loopwire exec` against the built `loopwire-server`) over both transports, with a retry, an API
// error and bad credentials, with the wire log on and transcripts on disk. Then every file written under
// the test's folder, every line printed, every event and every error message is scanned for the key as
// it is, its random part alone (a key cut short), and its base64, base64url, hex and URL-encoded forms.

const KEY = `sk-loopwire-SECRET-${randomBytes(12).toString('hex')}`;
/** Another server's token: the key is presented to it and refused, and the refusal must not echo it. */
const OTHER = `sk-loopwire-OTHER-${randomBytes(12).toString('hex')}`;

/** The forms a leak could take: base64 at each of the three byte alignments, the part free of neighbours. */
function leakForms(secret: string): Map<string, string> {
  const forms = new Map<string, string>([
    ['as is', secret],
    ['its random part', secret.slice(secret.lastIndexOf('-') + 1)],
    ['hex', Buffer.from(secret).toString('hex')],
    ['URL-encoded', encodeURIComponent(secret)],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(`Bearer ${secret}`))],
  ]);
  for (let align = 0; align < 3; align++) {
    const encoded = Buffer.concat([Buffer.alloc(align), Buffer.from(secret)]).toString('base64');
    const core = encoded.slice(align === 0 ? 0 : 4, -4);
    forms.set(`base64 (offset ${align})`, core);
    forms.set(`base64url (offset ${align})`, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

const FORMS = leakForms(KEY);

/** Each form of the key found in `text`, named with where it was. */
function leaks(where: string, text: string): string[] {
  return [...FORMS].filter(([, form]) => text.includes(form)).map(([name]) => `${where}: the key ${name}`);
}

/** Every file under `dir`, as text (latin1: every byte kept), for the scan. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ file, text: fs.readFileSync(file).toString('latin1') }];
  });
}

const SCENARIOS: ScenarioFile = {
  scenarios: [
    {
      name: 'note',
      match: 'write the note',
      steps: [
        {
          output: [
            {
              type: 'custom_tool_call',
              name: 'apply_patch',
              input: '*** Begin Patch\n*** Update File: notes.txt\n@@\n+a note\n*** End Patch\n',
            },
          ],
        },
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message', text: 'The note is written.' }] },
      ],
    },
  ],
};

describe('secrets: the API key never appears in an output', function () {
  this.timeout(120_000);
  /** Everything printed or emitted, by where it came from; files are read from `base` at the end. */
  const outputs: { where: string; text: string }[] = [];
  const temp = useTempWorkspace({}, { each: false, prefix: 'secrets' });
  let base: string;
  before(() => (base = temp.dir));

  it('the scan finds the key in each form it looks for (so a clean scan means something)', () => {
    const header = `Authorization: Bearer ${KEY}`;
    for (const align of ['', 'x', 'xy'])
      assert.notDeepEqual(leaks('planted', Buffer.from(align + header).toString('base64')), []);
    assert.notDeepEqual(leaks('planted', Buffer.from(header).toString('base64url')), []);
    assert.notDeepEqual(leaks('planted', `https://example.test/?key=${encodeURIComponent(header)}`), []);
    assert.notDeepEqual(leaks('planted', `${KEY.slice(0, 12)}…${KEY.slice(19)}`), []);
    assert.deepEqual(leaks('planted', `${KEY.slice(0, 8)}***${KEY.slice(-4)}`), [], 'a masked key is no leak');
  });

  describe('in-process: the agent and the server, over both transports', () => {
    let server: LoopwireServer;
    let other: LoopwireServer;
    const serverLog: string[] = [];
    before(async () => {
      const common = {
        scenarios: [SCENARIOS],
        tps: 50_000,
        prefillUsPerToken: 0,
        log: (line: string) => serverLog.push(line),
      };
      server = await startServer({ ...common, token: KEY, logFile: path.join(base, 'wire.jsonl') });
      other = await startServer({ ...common, token: OTHER, logFile: path.join(base, 'wire-other.jsonl') });
    });
    after(async () => {
      await server.close();
      await other.close();
      outputs.push({ where: 'the server log', text: serverLog.join('\n') });
    });

    const fault = (body: Record<string, unknown>) =>
      fetch(`${server.url.replace(/\/v1$/, '')}/admin/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    /** One task on a fresh folder, its transcript on disk; its events and end go to `outputs`. */
    async function task(label: string, target: LoopwireServer, transport: 'ws' | 'http', apiKey = KEY) {
      const dir = path.join(base, 'workspaces', label);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'notes\n');
      const events: AgentEvent[] = [];
      const emit = (event: AgentEvent) => events.push(event);
      const session = new ModelTransport({
        endpoint: target.url,
        apiKey,
        transport,
        idleTimeoutMs: 2_000,
        backoffBaseMs: 1,
        backoffMaxMs: 5,
        emit,
      });
      const agent = new Agent({
        transport: session,
        transcript: Transcript.create(
          { id: label, createdAt: new Date().toISOString(), workspace: dir, model: 'gpt-5.5' },
          path.join(base, 'transcripts', `${label}.jsonl`),
        ),
        tools: { workspace: await NodeWorkspace.open(dir), reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'secrets',
        toolSpecs: toolsFor('gpt-5.5'),
        approvals: approveAll,
        emit,
      });
      try {
        await agent.start();
      } catch (error) {
        outputs.push({ where: `${label}: start`, text: String(error) });
      }
      const done = await agent.run('Please write the note.');
      session.close();
      outputs.push({ where: `${label}: events`, text: events.map((event) => JSON.stringify(event)).join('\n') });
      outputs.push({ where: `${label}: the end`, text: done.reason });
      return { done, events };
    }

    for (const transport of ['ws', 'http'] as const) {
      it(`${transport}: a task completes, a retried one completes, an error and bad credentials stop`, async () => {
        assert.equal((await task(`${transport}-plain`, server, transport)).done.status, 'completed');

        await fault({ fault: { kind: 'error', status: 500, code: 'server_error' }, count: 1 });
        await fault({ fault: { kind: 'close', after_events: 2 }, count: 1 });
        await fault({ fault: { kind: 'error', status: 429, code: 'rate_limit_exceeded', retry_after_s: 0 } });
        const retried = await task(`${transport}-retried`, server, transport);
        assert.equal(retried.done.status, 'completed', retried.done.reason);
        // Over WebSocket some faults meet a socket's warm-up, which the turn makes up for without a retry.
        const retries = retried.events.filter((event) => event.type === 'retry').length;
        assert.ok(retries >= (transport === 'http' ? 3 : 1), `${retries} retries`);

        // Over WebSocket the warm-up meets it first (and stops the start), then the turn.
        await fault({
          fault: { kind: 'error', status: 400, code: 'invalid_value', message: 'A bad request.' },
          count: transport === 'ws' ? 2 : 1,
        });
        const refused = await task(`${transport}-refused`, server, transport);
        assert.equal(refused.done.status, 'failed');
        assert.match(refused.done.reason, /A bad request/);

        // The key presented to a server that expects another token, and a wrong key to this one.
        const presented = await task(`${transport}-presented`, other, transport);
        assert.equal(presented.done.status, 'failed');
        assert.match(presented.done.reason, /401/);
        const wrong = await task(`${transport}-wrong`, server, transport, 'sk-wrong');
        assert.equal(wrong.done.status, 'failed');
      });
    }
  });

  describe('the CLI: loopwire exec (key in OPENAI_API_KEY) against loopwire-server', () => {
    let running: ChildProcessWithoutNullStreams;
    let url = '';
    let serverOut = '';
    let serverErr = '';
    let dir: string;
    before(async () => {
      running = spawn(
        process.execPath,
        [
          path.join(repoRoot, 'dist/cli/loopwire-server.js'),
          '--token',
          KEY,
          '--log',
          path.join(base, 'cli-wire.jsonl'),
          '--scenario',
          path.join(repoRoot, 'src/server/scenarios/default.json'),
        ],
        { cwd: repoRoot },
      );
      running.stdout.on('data', (chunk: Buffer) => (serverOut += chunk.toString('utf8')));
      running.stderr.on('data', (chunk: Buffer) => (serverErr += chunk.toString('utf8')));
      url = await new Promise<string>((resolve, reject) => {
        running.stdout.on('data', () => serverOut.includes('\n') && resolve(serverOut.split('\n')[0] ?? ''));
        running.on('close', () => reject(new Error(`loopwire-server exited: ${serverErr}`)));
      });
      dir = path.join(base, 'cli-workspace');
      fs.cpSync(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
      // A test script that prints its environment's key, as a test dumping `env` on failure would.
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      manifest.scripts = { test: `node -e "console.log('OPENAI_API_KEY=' + process.env.OPENAI_API_KEY)"` };
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    });
    after(async () => {
      const closed = new Promise((resolve) => running.on('close', resolve));
      running.kill('SIGTERM');
      await closed;
      outputs.push(
        { where: 'loopwire-server stdout', text: serverOut },
        { where: 'loopwire-server stderr', text: serverErr },
      );
    });

    /** Runs the built `loopwire exec` with the key in its environment; its output goes to `outputs`. */
    function exec(
      label: string,
      args: string[],
      endpoint = url,
    ): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
      const argv = [bin, 'exec', '--workspace', dir, '--sessions-dir', path.join(base, 'sessions'), '--approve', 'all'];
      const child = spawn(process.execPath, [...argv, '--endpoint', endpoint, ...args], {
        cwd: repoRoot,
        env: { ...process.env, OPENAI_API_KEY: KEY, NO_COLOR: '1' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdin.end();
      return new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => {
          outputs.push({ where: `${label}: stdout`, text: stdout }, { where: `${label}: stderr`, text: stderr });
          resolve({ code, stdout, stderr });
        });
      });
    }

    const fault = (body: Record<string, unknown>) =>
      fetch(`${url.replace(/\/v1$/, '')}/admin/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('a task that runs the tests, as text and as --json, over both transports', async () => {
      const text = await exec('exec ws text', ['--transport', 'ws', 'run the tests']);
      assert.equal(text.code, 0, text.stderr + text.stdout);
      assert.match(text.stdout, /npm: test/);
      const json = await exec('exec http json', ['--transport', 'http', '--json', 'run the tests']);
      assert.equal(json.code, 0, json.stderr);
      assert.match(json.stdout, /"type":"done"/);
      // The task ran and printed its environment's key: there was none to print.
      assert.match(json.stdout, /OPENAI_API_KEY=undefined/);
    });

    it('a retry, an API error and refused credentials, as text and as --json', async () => {
      await fault({ fault: { kind: 'error', status: 500, code: 'server_error' } });
      await fault({ fault: { kind: 'close', after_events: 1 } });
      const retried = await exec('exec retried', ['--transport', 'ws', '--json', 'read src/cart.js']);
      assert.equal(retried.code, 0, retried.stderr);
      assert.match(retried.stdout, /"type":"retry"/);
      await fault({ fault: { kind: 'error', status: 400, code: 'invalid_value', message: 'A bad request.' } });
      const refused = await exec('exec refused', ['--transport', 'http', 'read src/cart.js']);
      assert.equal(refused.code, 1);
      assert.match(refused.stdout + refused.stderr, /A bad request/);
      const other = await startServer({ token: OTHER, logFile: path.join(base, 'cli-wire-other.jsonl') });
      try {
        for (const transport of ['ws', 'http']) {
          const denied = await exec(
            `exec denied ${transport}`,
            ['--transport', transport, 'read src/cart.js'],
            other.url,
          );
          assert.equal(denied.code, 1);
          assert.match(denied.stdout + denied.stderr, /401/);
          const deniedJson = await exec(
            `exec denied ${transport} json`,
            ['--transport', transport, '--json', 'read x'],
            other.url,
          );
          assert.equal(deniedJson.code, 1);
        }
      } finally {
        await other.close();
      }
    });
  });

  // Last (mocha runs a suite's own tests before its nested suites): every output above is in by now.
  describe('the scan', () => {
    it('no output holds the key: not the files written (wire logs, transcripts, sessions), prints, events or errors', () => {
      const found = [
        ...outputs.flatMap(({ where, text }) => leaks(where, text)),
        ...filesUnder(base).flatMap(({ file, text }) => leaks(path.relative(base, file), text)),
      ];
      assert.ok(outputs.length >= 20, `only ${outputs.length} outputs were collected`);
      assert.ok(fs.readdirSync(path.join(base, 'sessions')).length >= 4, 'the CLI kept its sessions');
      assert.deepEqual(found, []);
    });
  });
});
