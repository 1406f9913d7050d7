import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { DEFAULT_SCENARIOS } from '../../../src/server';
import { ECHO_SCENARIO, WsClient, finalResponse, post } from '../server/support/harness';
import { repoRoot, runProcess } from '../support/runProcess';
import { type Running, URL_LINE, freePort, launch, runToEnd, useServerBin } from './serverBin';

// `loopwire-server` as a user runs it: the built bundle, a child process, real flags, real signals. The
// token's sources: loopwireServerToken.test.ts.

describe('cli: loopwire-server', function () {
  let dir: string;
  useServerBin((folder) => (dir = folder));

  it('prints exactly its base URL as the first stdout line, nothing before or after it; logs go to stderr', async () => {
    const server = await launch(['--scenario', ECHO_SCENARIO]);
    assert.match(server.url, URL_LINE);
    assert.ok(server.stdout().startsWith(`${server.url}\n`), JSON.stringify(server.stdout()));
    assert.match(server.stderr(), /listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(\d+ scenario\(s\)/);
    assert.equal((await post(`${server.url}/responses`, { model: 'm', input: 'echo hi' })).status, 200);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.equal(server.stdout(), `${server.url}\n`, 'nothing else is ever written to stdout');
  });

  it('answers at that URL over HTTP and WebSocket', async () => {
    const server = await launch(['--scenario', ECHO_SCENARIO]);
    const reply = await post(`${server.url}/responses`, { model: 'm', store: false, input: 'echo hi' });
    assert.equal(reply.status, 200);
    const response = JSON.parse(reply.text) as { output: { type: string; name: string }[] };
    assert.deepEqual(
      response.output.map((item) => [item.type, item.name]),
      [['function_call', 'exec_command']],
    );
    const client = await WsClient.open(server.url);
    try {
      const frames = await client.turn({ model: 'm', store: false, input: 'echo hi' });
      assert.equal(finalResponse(frames).status, 'completed');
    } finally {
      client.close();
    }
  });

  it('serves the default scenarios after any --scenario files, and says on stderr how many came from where', async () => {
    const defaults = DEFAULT_SCENARIOS.scenarios.length;
    const answer = async (url: string, input: string) => {
      const reply = await post(`${url}/responses`, { model: 'm', store: false, input });
      assert.equal(reply.status, 200, reply.text);
      const { output } = JSON.parse(reply.text) as { output: { type: string; name?: string }[] };
      const call = output.find((item) => item.type === 'function_call');
      return call ? `call ${call.name}` : output.map((item) => item.type).join(',');
    };
    const [plain, withFile, onlyFile, nothing] = await Promise.all([
      launch([]),
      launch(['--scenario', ECHO_SCENARIO]),
      launch(['--no-default-scenarios', '--scenario', ECHO_SCENARIO]),
      launch(['--no-default-scenarios']),
    ]);
    assert.ok(plain && withFile && onlyFile && nothing);
    const startLine = (server: Running) => server.stderr().split('\n')[0];
    assert.equal(startLine(plain), `loopwire-server: ${defaults} scenario(s): ${defaults} default`);
    assert.equal(
      startLine(withFile),
      `loopwire-server: ${defaults + 1} scenario(s): 1 from ${ECHO_SCENARIO}, ${defaults} default`,
    );
    assert.equal(startLine(onlyFile), `loopwire-server: 1 scenario(s): 1 from ${ECHO_SCENARIO}`);
    assert.equal(startLine(nothing), 'loopwire-server: 0 scenario(s) (every prompt gets the no-match answer)');
    assert.equal(await answer(plain.url, 'Fix the failing test.'), 'call run_task', 'a default scenario');
    assert.equal(await answer(withFile.url, 'echo hi'), 'call exec_command', 'the file');
    assert.equal(await answer(withFile.url, 'Fix the failing test.'), 'call run_task', 'the defaults after it');
    assert.equal(await answer(onlyFile.url, 'echo hi'), 'call exec_command');
    assert.equal(await answer(onlyFile.url, 'Fix the failing test.'), 'message', 'no defaults: no match');
    for (const server of [plain, withFile, onlyFile, nothing]) {
      server.child.kill('SIGTERM');
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      assert.equal(server.stdout(), `${server.url}\n`, 'nothing but the URL on stdout');
    }
    const help = await runToEnd(['--help']);
    assert.match(help.stdout, /\[--no-default-scenarios\]/);
    assert.match(help.stdout, /\n {2}--no-default-scenarios {6}serve only the --scenario files\n/);
  });

  it('with loopwire exec --endpoint URL, does the demo task as the embedded backend does', async function () {
    this.timeout(60_000);
    const workspace = path.join(dir, 'workspace');
    fs.cpSync(path.join(repoRoot, 'demo/workspace'), workspace, { recursive: true });
    const server = await launch([]);
    const exec = await runProcess(process.execPath, [
      path.join(repoRoot, 'dist/cli/loopwire.js'),
      'exec',
      '--workspace',
      workspace,
      '--sessions-dir',
      path.join(dir, 'sessions'),
      '--endpoint',
      server.url,
      '--approve',
      'all',
      'fix the failing test',
    ]);
    assert.equal(exec.code, 0, exec.stderr + exec.stdout);
    assert.match(exec.stdout, /✓ Task 'npm: test' finished with exit code 0/);
    assert.match(exec.stdout, /\ndone: the model answered · 6 turns · 5 tool calls · /);
    assert.match(fs.readFileSync(path.join(workspace, 'src/cart.js'), 'utf8'), /amount \* \(1 - percent \/ 100\)/);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.equal(server.stdout(), `${server.url}\n`);
  });

  it('answers a prompt no scenario matches in a few words, with its own --scenario FILE', async () => {
    const mine = path.join(dir, 'mine.json');
    fs.writeFileSync(
      mine,
      JSON.stringify({
        scenarios: [
          { name: 'quiet', match: '^quiet$', steps: [{ output: [{ type: 'message', text: 'ok' }] }] },
          {
            name: 'deploy',
            match: '^deploy',
            example: 'deploy to staging',
            steps: [{ output: [{ type: 'message', text: 'ok' }] }],
          },
        ],
      }),
    );
    const [server, bare] = await Promise.all([
      launch(['--scenario', mine]),
      launch(['--no-default-scenarios', '--scenario', ECHO_SCENARIO]),
    ]);
    assert.ok(server && bare);
    const say = async (url: string) => {
      const reply = await post(`${url}/responses`, { model: 'm', store: false, input: 'write me a sonnet' });
      assert.equal(reply.status, 200, reply.text);
      const response = JSON.parse(reply.text) as { output: { content: { text: string }[] }[] };
      return response.output[0]?.content[0]?.text ?? '';
    };
    const text = await say(server.url);
    assert.match(text, /^Loopwire's offline model knows only the demo's tasks: no scenario matches this prompt\. /);
    assert.ok(!text.includes('deploy to staging'), 'no list of prompts: docs/backend.md has it');
    assert.match(text, / write a scenario file and start loopwire-server with --scenario FILE\.$/);
    // Its scenarios without the defaults: the same answer, the same front end's way to add one.
    assert.match(
      await say(bare.url),
      /no scenario matches this prompt\. .* start loopwire-server with --scenario FILE\.$/,
    );
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} shuts it down with exit code 0, open sockets and all`, async () => {
      const server = await launch([]);
      const client = await WsClient.open(server.url);
      server.child.kill(signal);
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      assert.match(server.stderr(), new RegExp(`loopwire-server: ${signal}, shutting down`));
      assert.ok((await client.closed()) > 0);
      await assert.rejects(fetch(`${server.url}/models`), TypeError, 'no longer listening');
    });
  }

  it('bad flags: exit code 2, the reason and the usage on stderr, nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['--no-such-flag'], /Unknown option '--no-such-flag'/],
      [['extra'], /Unexpected argument 'extra'/],
      [['--port'], /Option '--port <value>' argument missing/],
      [['--port', 'abc'], /--port expects a whole non-negative number, got 'abc'/],
      [['--port', '1.5'], /--port expects a whole non-negative number, got '1\.5'/],
      [['--port', '70000'], /--port must be at most 65535, got 70000/],
      [['--tps', '0'], /--tps must be above 0/],
      [['--tps=-5'], /--tps expects a non-negative number, got '-5'/],
      [['--max-connection-s', '0'], /--max-connection-s must be above 0/],
      [['--prefill-us-per-token', 'lots'], /--prefill-us-per-token expects a non-negative number, got 'lots'/],
      [['--token', ''], /--token must not be empty/],
      [['--token-file', ''], /--token-file must not be empty/],
      [['--token', 'a', '--token-file', 'b'], /give the token once: --token-file or --token/],
    ];
    const results = await Promise.all(cases.map(([args]) => runToEnd(args)));
    cases.forEach(([args, reason], index) => {
      const result = results[index];
      assert.ok(result);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^loopwire-server: /);
      assert.match(result.stderr, reason);
      assert.match(result.stderr, /usage: loopwire-server /);
      assert.equal(result.stdout, '', args.join(' '));
    });
  });

  it('a bad scenario file: exit code 1 with the file and the problem on stderr', async () => {
    const notJson = path.join(dir, 'broken.json');
    fs.writeFileSync(notJson, '{"scenarios": [');
    const badField = path.join(dir, 'bad-field.json');
    fs.writeFileSync(badField, JSON.stringify({ scenarios: [{ name: 'x', match: 'x', steps: [] }] }));
    const badRegex = path.join(dir, 'bad-regex.json');
    fs.writeFileSync(
      badRegex,
      JSON.stringify({ scenarios: [{ name: 'x', match: '(', steps: [{ output: [{ type: 'message', text: 'x' }] }] }] }),
    );
    const missing = path.join(dir, 'missing.json');
    const cases: [string[], RegExp][] = [
      [['--scenario', missing], new RegExp(`^loopwire-server: ${escape(missing)}: cannot read: ENOENT`)],
      [['--scenario', notJson], new RegExp(`^loopwire-server: ${escape(notJson)}: not JSON: `)],
      [['--scenario', badField], new RegExp(`^loopwire-server: ${escape(badField)}: scenarios\\.0\\.steps: `)],
      [
        ['--scenario', ECHO_SCENARIO, '--scenario', badRegex],
        new RegExp(`^loopwire-server: ${escape(badRegex)}: scenarios\\.0\\.match: not a valid regular expression`),
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => runToEnd(args)));
    cases.forEach(([args, message], index) => {
      const result = results[index];
      assert.ok(result);
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /usage:/, 'a bad file is not a usage error');
      assert.equal(result.stdout, '');
    });
  });

  it('a port already in use: exit code 1 with the reason, nothing on stdout', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as net.AddressInfo;
      const result = await runToEnd(['--port', String(port)]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /EADDRINUSE/);
      assert.equal(result.stdout, '');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('accepts every documented flag, and each one does what it says', async function () {
    this.timeout(30_000);
    const story = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const first = path.join(dir, 'first.json');
    fs.writeFileSync(
      first,
      JSON.stringify({
        scenarios: [
          { name: 'alpha', match: '^alpha$', steps: [{ output: [{ type: 'message', text: 'from the first file' }] }] },
          { name: 'both', match: '^both$', steps: [{ output: [{ type: 'message', text: 'the first file wins' }] }] },
        ],
      }),
    );
    const second = path.join(dir, 'second.json');
    fs.writeFileSync(
      second,
      JSON.stringify({
        scenarios: [
          { name: 'both', match: '^both$', steps: [{ output: [{ type: 'message', text: 'the second file lost' }] }] },
          { name: 'story', match: '^story$', steps: [{ output: [{ type: 'message', text: story }] }] },
          { name: 'short', match: 'short', steps: [{ output: [{ type: 'message', text: 'ok' }] }] },
        ],
      }),
    );
    const storeDir = path.join(dir, 'store');
    const log = path.join(dir, 'wire.jsonl');
    const bodies = path.join(dir, 'bodies.jsonl');
    const port = await freePort();
    const server = await launch([
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--token',
      'sekrit',
      '--scenario',
      first,
      '--scenario',
      second,
      '--tps',
      '400',
      '--store-dir',
      storeDir,
      '--log',
      log,
      '--log-bodies',
      bodies,
      '--max-connection-s',
      '0.6',
      '--prefill-us-per-token',
      '300',
    ]);
    assert.equal(server.url, `http://127.0.0.1:${port}/v1`, '--host and --port');
    const auth = { authorization: 'Bearer sekrit' };
    // --max-connection-s: a socket opened now is told so and closed (1001) after 0.6 s.
    const aging = await WsClient.open(server.url, auth);
    const opened = performance.now();

    assert.equal((await post(`${server.url}/responses`, { model: 'm', input: 'alpha' })).status, 401, '--token');
    const ask = async (input: string, extra: Record<string, unknown> = {}) => {
      const started = performance.now();
      const reply = await post(`${server.url}/responses`, { model: 'm', input, ...extra }, auth);
      assert.equal(reply.status, 200, reply.text);
      const response = JSON.parse(reply.text) as {
        id: string;
        output: { content: { text: string }[] }[];
        usage: { input_tokens: number; output_tokens: number };
      };
      return { response, text: response.output[0]?.content[0]?.text, ms: performance.now() - started };
    };
    // --scenario, repeatable, in order: the first file's match wins.
    assert.equal((await ask('alpha')).text, 'from the first file');
    assert.equal((await ask('both')).text, 'the first file wins');
    // --tps 400: the story's tokens take at least tokens / 400 s.
    const told = await ask('story', { store: false });
    assert.ok(told.response.usage.output_tokens >= 40);
    const paced = (told.response.usage.output_tokens / 400) * 1000;
    assert.ok(told.ms >= paced * 0.95, `${told.response.usage.output_tokens} tokens in ${told.ms.toFixed(0)} ms`);
    // --prefill-us-per-token 300: a long new input costs 0.3 ms per token before the first output.
    const long = await ask(`short ${'lighthouse keeper '.repeat(400)}`, { store: false });
    const prefill = (long.response.usage.input_tokens * 300) / 1000;
    assert.ok(long.response.usage.input_tokens > 500);
    assert.ok(
      long.ms >= prefill * 0.95,
      `${long.response.usage.input_tokens} input tokens in ${long.ms.toFixed(0)} ms`,
    );
    // --store-dir: store:true responses are files there.
    const stored = (await ask('alpha')).response;
    assert.ok(fs.readdirSync(storeDir).includes(`${stored.id}.json`), '--store-dir');

    assert.equal(await aging.closed(), 1001);
    assert.ok(performance.now() - opened >= 550, 'not before the limit');
    assert.equal((aging.frames[0] as { error?: { code: string } }).error?.code, 'websocket_connection_limit_reached');

    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.equal(server.stdout(), `${server.url}\n`);
    // --log: the wire log has this session's requests.
    const lines = fs
      .readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; dir?: string; transport: string });
    assert.equal(lines.filter((line) => line.type === 'POST /v1/responses' && line.dir === 'in').length, 6);
    assert.ok(lines.some((line) => line.transport === 'ws' && line.type === 'close'));
    assert.ok(!lines.some((line) => 'body' in line), 'the wire log carries no bodies of its own');
    // --log-bodies: one line per request, its transport and its body as received.
    const requests = fs
      .readFileSync(bodies, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { transport: string; body: { input?: unknown } });
    assert.equal(requests.length, 5, 'the five answered (the one refused for its token was never read)');
    assert.deepEqual(requests[0], { ...requests[0], transport: 'http', body: { model: 'm', input: 'alpha' } });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
