import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` with MCP servers, as a user runs it: the built bin, a workspace whose `.vscode/mcp.json`
// names the echo server (test/fixtures/mcp, written with the SDK), a scenario that calls its tools. The
// workspace's file starts only with the user's yes, `--mcp-config` naming it (execMcpConsent.test.ts).

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const ECHO_SERVER = path.join(repoRoot, 'test/fixtures/mcp/echoServer.mjs');

const call = (name: string, args: Record<string, unknown>) => [
  { output: [{ type: 'function_call', name, arguments: args }] },
  { output: [{ type: 'message', text: `Called ${name}.` }] },
];

const SCENARIOS = {
  scenarios: [
    { name: 'say', match: '^say: (.*)$', steps: call('mcp__echo__say', { text: '{{1}}' }) },
    { name: 'other', match: '^other: (.*)$', steps: call('mcp__other__say', { text: '{{1}}' }) },
    { name: 'touch', match: '^touch: (.*)$', steps: call('mcp__echo__touch', { path: '{{1}}' }) },
  ],
};

const mcpJson = (servers: Record<string, unknown>) => JSON.stringify({ servers }, null, 2);
const echo = { type: 'stdio', command: process.execPath, args: [ECHO_SERVER] };

describe('cli: loopwire exec with MCP servers', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      'workspace/README.md': '# A workspace with MCP servers\n',
      'workspace/.vscode/mcp.json': `// the workspace's MCP servers\n${mcpJson({ echo })}`,
      'scenarios.json': JSON.stringify(SCENARIOS),
    },
    { prefix: 'exec-mcp' },
  );
  const exec = (...args: string[]) =>
    runProcess(process.execPath, [
      bin,
      'exec',
      '--workspace',
      temp.path('workspace'),
      '--sessions-dir',
      temp.path('sessions'),
      '--scenario',
      temp.path('scenarios.json'),
      ...args,
    ]);
  /** The outputs of the calls in the session's transcript: what the model got. */
  const outputs = async () => {
    const [file] = await fs.readdir(temp.path('sessions'));
    const text = await fs.readFile(path.join(temp.path('sessions'), file ?? ''), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.includes('function_call_output'))
      .map((line) => (JSON.parse(line) as { item: { output: string } }).item.output);
  };

  /** The user's yes to the workspace's own servers. */
  const allowWorkspace = () => ['--mcp-config', temp.path('workspace/.vscode/mcp.json')];

  it("runs a tool of the workspace's .vscode/mcp.json as mcp__SERVER__TOOL; its answer reaches the model", async () => {
    const result = await exec(...allowWorkspace(), '--approve', 'read-only', 'say: hello from exec');
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(
      result.stdout,
      /▸ mcp__echo__say echo · say: hello from exec\n {2}✓ 1 line \(\d+ ms\)\n {4}echo: hello from exec\n/,
    );
    assert.match(result.stderr, /\(MCP server 'echo': 8 tools\)/);
    assert.deepEqual(await outputs(), ['echo: hello from exec']);
  });

  it('under --approve read-only a tool that does not say it only reads is refused, and nothing runs', async () => {
    const file = temp.path('touched.txt');
    const result = await exec(...allowWorkspace(), '--approve', 'read-only', `touch: ${file}`);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /▸ mcp__echo__touch echo · touch: .*touched\.txt\n {2}✗ declined/);
    await assert.rejects(fs.access(file), 'the declined call did not run');
    assert.match((await outputs())[0] ?? '', /^The user declined this mcp__echo__touch call/);
    const allowed = await exec(...allowWorkspace(), '--approve', 'all', `touch: ${file}`);
    assert.equal(allowed.code, 0, allowed.stderr + allowed.stdout);
    assert.equal(await fs.readFile(file, 'utf8'), 'touched');
  });

  it('--mcp-config FILE names the servers instead; one that does not start is said and left out', async () => {
    await temp.write(
      'other.json',
      mcpJson({ other: echo, broken: { type: 'stdio', command: 'no-such-mcp-server-command' } }),
    );
    const result = await exec('--approve', 'read-only', '--mcp-config', temp.path('other.json'), 'other: hi');
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /▸ mcp__other__say other · say: hi\n {2}✓ 1 line/);
    assert.match(
      result.stderr,
      /\(The MCP server 'broken' could not be started \(no-such-mcp-server-command\): .*ENOENT/,
    );
    assert.doesNotMatch(result.stderr, /'echo'/, 'the workspace file is not read when --mcp-config names one');
    assert.deepEqual(await outputs(), ['echo: hi']);
  });

  it('a missing or invalid --mcp-config is bad usage; a server using ${input:…} is skipped, said so', async () => {
    const missing = await exec('--approve', 'read-only', '--mcp-config', temp.path('none.json'), 'say: x');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--mcp-config: .*none\.json does not exist/);
    await temp.write('broken.json', '{ "servers": ');
    const broken = await exec('--approve', 'read-only', '--mcp-config', temp.path('broken.json'), 'say: x');
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.json: not valid JSON with comments/);
    await temp.write('inputs.json', mcpJson({ echo: { ...echo, env: { KEY: '${input:key}' } } }));
    const inputs = await exec('--approve', 'read-only', '--mcp-config', temp.path('inputs.json'), 'say: x');
    assert.equal(inputs.code, 0, inputs.stderr);
    assert.match(
      inputs.stderr,
      /MCP server 'echo' skipped: it uses \$\{input:key\}, and prompting for inputs is not supported/,
    );
    assert.match(inputs.stdout, /There is no tool 'mcp__echo__say'/);
  });
});
