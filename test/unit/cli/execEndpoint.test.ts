import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { USER_AGENT, WEBSOCKET_BETA } from '../../../src/agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, startServer } from '../../../src/server';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` against an endpoint as the real API would meet it: what one session sends (captured by a
// WebSocket relay in front of the server), a refused warm-up that must not fail the task, and every fatal
// refusal, each ending the process with exit code 1 and the reason, nothing left open.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const TOKEN = 'sk-endpoint-test';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `loopwire exec` with `args`; a run still going after `limitMs` is killed (and fails the test). */
function exec(args: string[], env: Record<string, string>, limitMs = 15_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, 'exec', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') stderr += `\n(killed: still running after ${limitMs} ms)`;
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Queues a fault on the server's admin endpoint for its next `count` responses. */
async function fault(server: LoopwireServer, fault: Record<string, unknown>, count = 1): Promise<void> {
  const response = await fetch(`${server.url.replace(/\/v1$/, '')}/admin/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fault, count, transport: 'ws' }),
  });
  assert.equal(response.status, 200, await response.text());
}

interface Capture {
  upgrades: IncomingHttpHeaders[];
  sent: Record<string, unknown>[];
}

/** A WebSocket relay to `target` that records each upgrade's headers and every frame the client sends. */
async function relay(target: string): Promise<{ url: string; capture: Capture; close: () => Promise<void> }> {
  const capture: Capture = { upgrades: [], sent: [] };
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/v1/responses' });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (client, request) => {
    capture.upgrades.push(request.headers);
    const upstream = new WebSocket(`${target.replace(/^http/, 'ws')}/responses`, {
      headers: { authorization: request.headers.authorization ?? '' },
    });
    const queued: string[] = [];
    upstream.on('open', () => queued.splice(0).forEach((frame) => upstream.send(frame)));
    upstream.on('message', (data) => client.send((data as Buffer).toString('utf8')));
    upstream.on('close', () => client.close());
    upstream.on('error', () => client.terminate());
    client.on('message', (data) => {
      const text = (data as Buffer).toString('utf8');
      capture.sent.push(JSON.parse(text) as Record<string, unknown>);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else queued.push(text);
    });
    client.on('close', () => upstream.close());
    client.on('error', () => upstream.terminate());
  });
  const { port } = wss.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    capture,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('cli: loopwire exec against an endpoint', function () {
  this.timeout(30_000);
  let server: LoopwireServer;
  const temp = useTempWorkspace({}, { prefix: 'endpoint' });
  let base: string;
  let dir: string;
  beforeEach(async () => {
    server = await startServer({ scenarios: [DEFAULT_SCENARIOS], token: TOKEN });
    base = temp.dir;
    dir = temp.path('workspace');
    await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
  });
  afterEach(() => server.close());

  const args = (endpoint: string, ...more: string[]) => [
    '--workspace',
    dir,
    '--sessions-dir',
    path.join(base, 'sessions'),
    '--approve',
    'all',
    '--endpoint',
    endpoint,
    '--transport',
    'ws',
    ...more,
  ];

  it('sends what the API uses: headers on the upgrade, one prompt_cache_key, reasoning, no empty request', async () => {
    const proxy = await relay(server.url);
    try {
      const run = await exec(
        args(
          proxy.url,
          '--reasoning-effort',
          'high',
          '--verbosity',
          'low',
          '--header',
          'X-Gateway: team-a',
          'Fix the failing test.',
        ),
        { OPENAI_API_KEY: TOKEN },
      );
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const { upgrades, sent } = proxy.capture;
      assert.equal(upgrades.length, 1, 'one socket for the whole session');
      const [upgrade] = upgrades;
      assert.equal(upgrade?.['user-agent'], USER_AGENT);
      assert.match(USER_AGENT, /^loopwire\/\d+\.\d+\.\d+ \(node v\d+\.\d+\.\d+; \w+\)$/);
      assert.equal(upgrade?.['openai-beta'], WEBSOCKET_BETA);
      assert.equal(upgrade?.authorization, `Bearer ${TOKEN}`);
      assert.equal(upgrade?.['x-gateway'], 'team-a');

      const creates = sent.filter((frame) => frame.type === 'response.create');
      assert.ok(creates.length >= 6, `a warm-up and the task's turns, got ${creates.length}`);
      const [warmup, ...turns] = creates;
      assert.equal(warmup?.generate, false);
      assert.deepEqual(
        (warmup?.input as { role?: string }[]).map((item) => item.role),
        ['developer'],
        'the warm-up carries the instructions as a developer message',
      );
      for (const create of creates) {
        const input = create.input as unknown[];
        assert.ok(input.length > 0 || typeof create.previous_response_id === 'string', 'no request with nothing');
        assert.equal(create.instructions, undefined, 'instructions travel in the context, not beside it');
      }
      const keys = new Set(creates.map((create) => create.prompt_cache_key));
      assert.equal(keys.size, 1);
      assert.match(String([...keys][0]), /^\d{4}-\d\d-\d\dT/, 'the session id');
      for (const turn of turns) {
        assert.deepEqual(turn.reasoning, { effort: 'high', summary: 'auto' });
        assert.deepEqual(turn.text, { verbosity: 'low' });
        assert.equal(typeof turn.previous_response_id, 'string', 'every turn chains on the one socket');
      }
    } finally {
      await proxy.close();
    }
  });

  it('refuses a bad reasoning, verbosity or header flag with exit 2, naming what it takes', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--reasoning-effort', 'extreme'],
        /--reasoning-effort must be default, none, minimal, low, medium, high or xhigh, not 'extreme'/,
      ],
      [['--reasoning-summary', 'detailed'], /--reasoning-summary must be auto or off, not 'detailed'/],
      [['--verbosity', 'loud'], /--verbosity must be default, low, medium or high, not 'loud'/],
      [['--header', 'no colon here'], /--header must be 'Name: value' \(one line\), not 'no colon here'/],
    ];
    for (const [flags, message] of cases) {
      const run = await exec([...args(server.url), ...flags, 'hi'], {});
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
    }
  });

  it('a refused warm-up does not fail the task: one line says so, and the task completes', async () => {
    await fault(server, { kind: 'error', status: 400, code: 'invalid_value', message: 'No warm-ups here.' });
    const run = await exec(args(server.url, 'Fix the failing test.'), { OPENAI_API_KEY: TOKEN });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stderr, /warm-up was refused \(invalid_value \(400\): No warm-ups here\.\); going on without it/);
    assert.match(run.stdout, /\ndone: the model answered/);
  });

  describe('every fatal refusal ends the process with exit 1 and the reason', () => {
    const fatal = async (name: string, endpoint: string, env: Record<string, string>, reason: RegExp) => {
      const run = await exec(args(endpoint, 'Fix the failing test.'), env);
      console.log(`      (${name}: exit ${run.code} after ${Math.round(run.ms)} ms)`);
      assert.equal(run.code, 1, run.stderr + run.stdout);
      assert.doesNotMatch(run.stderr, /killed: still running/);
      assert.match(run.stderr + run.stdout, reason);
    };

    it('a 400 on every turn', async () => {
      await fault(server, { kind: 'error', status: 400, code: 'invalid_value', message: 'Bad value.' }, 20);
      await fatal('400', server.url, { OPENAI_API_KEY: TOKEN }, /The API refused the request: invalid_value \(400\)/);
    });

    it('a 401 at the upgrade (a wrong key)', async () => {
      await fatal('401 upgrade', server.url, { OPENAI_API_KEY: 'sk-wrong' }, /refused the credentials/);
    });

    it('a 403 on a turn', async () => {
      await fault(server, { kind: 'error', status: 403, code: 'forbidden', message: 'Not for you.' }, 20);
      await fatal('403 turn', server.url, { OPENAI_API_KEY: TOKEN }, /refused the request: forbidden \(403\)/);
    });

    it('a closed port (connection refused)', async () => {
      const port = await closedPort();
      await fatal('closed port', `http://127.0.0.1:${port}/v1`, {}, /Nothing answers at the endpoint: .*ECONNREFUSED/);
    });

    it('a host that does not exist', async () => {
      await fatal(
        'no such host',
        'http://loopwire-no-such-host.invalid/v1',
        {},
        /Nothing answers at the endpoint: .*ENOTFOUND/,
      );
    });
  });
});
