import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEFAULT_SCENARIOS, type LoopwireServer, startServer } from '../../../src/server';
import { type RealProxy, closedPort, startRealProxy } from '../support/realProxy';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// The built `loopwire exec` behind a proxy, as a user behind a corporate one runs it: HTTP_PROXY (the server
// is http://127.0.0.1) takes both transports through a real proxy (TooTallNate's `proxy`, started here) to
// the real server; a proxy that cannot be reached is the error line, naming it and the variables to check;
// the embedded backend, in the same process, never goes through one.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const TOKEN = 'sk-proxy-test';

/** The environment without the proxy variables of whoever runs the suite, and with `env`. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name));
  return { ...Object.fromEntries(kept), OPENAI_API_KEY: TOKEN, ...env };
}

describe('cli: loopwire exec through a proxy', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({ 'notes.txt': 'one\n' }, { prefix: 'exec-proxy' });
  let server: LoopwireServer;
  let proxy: RealProxy | undefined;
  beforeEach(async () => {
    server = await startServer({ token: TOKEN, scenarios: [DEFAULT_SCENARIOS] });
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await server.close();
  });

  const exec = (args: string[], env: Record<string, string>) =>
    runProcess(
      process.execPath,
      [
        bin,
        'exec',
        '--sessions-dir',
        temp.path('sessions'),
        '--workspace',
        temp.dir,
        '--approve',
        'read-only',
        ...args,
      ],
      '',
      environment(env),
    );

  for (const transport of ['ws', 'http']) {
    it(`--transport ${transport}: the task runs through the proxy HTTP_PROXY names`, async () => {
      proxy = await startRealProxy();
      const result = await exec(['--endpoint', server.url, '--transport', transport, 'Say hello.'], {
        HTTP_PROXY: proxy.url,
      });
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.deepEqual([...new Set(proxy.tunnels)], [new URL(server.url).host]);
    });
  }

  it('NO_PROXY naming the endpoint goes around the proxy', async () => {
    proxy = await startRealProxy();
    const result = await exec(['--endpoint', server.url, 'Say hello.'], {
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'localhost,127.0.0.1',
    });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.deepEqual(proxy.tunnels, []);
  });

  it('a proxy that cannot be reached is the error line, naming the proxy and what to check', async () => {
    const port = await closedPort();
    const result = await exec(['--endpoint', server.url, 'Say hello.'], { HTTP_PROXY: `http://127.0.0.1:${port}` });
    assert.equal(result.code, 1, result.stderr + result.stdout);
    const line = result.stderr.split('\n').find((text) => text.includes('error'));
    assert.match(
      line ?? result.stderr,
      new RegExp(
        `Nothing answers at the proxy http://127\\.0\\.0\\.1:${port} \\(HTTP_PROXY\\) \\(connect ECONNREFUSED [^)]*\\)\\. ` +
          "Check HTTPS_PROXY and HTTP_PROXY, or name the endpoint's host in NO_PROXY\\.",
      ),
    );
  });

  it('the embedded backend never goes through a proxy', async () => {
    const port = await closedPort();
    const result = await exec(['Say hello.'], {
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
    });
    assert.equal(result.code, 0, result.stderr + result.stdout);
  });
});
