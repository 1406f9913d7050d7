import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mcpServersOf } from '../../../src/cli/exec/mcpSetup';
import { shellWord } from '../../../src/mcp/mcpConsent';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// A repository's `.vscode/mcp.json` is a stranger's input: `loopwire exec` starts its servers only after the
// user's yes. The built bin, in a folder whose mcp.json names the server, `sh -c 'touch MCP-RAN'`:
// without a terminal and without --mcp-config it runs nothing and says so in one line; --mcp-config is the
// yes; on a terminal (a real one, through util-linux's `script`) the question is asked and answered.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const TOUCH = { type: 'stdio', command: 'sh', args: ['-c', 'touch MCP-RAN'] };
const LINE =
  'loopwire exec: .vscode/mcp.json names 1 MCP server (docs), not started without a terminal to ask on; ' +
  'to start it, add --mcp-config .vscode/mcp.json';

describe('cli: loopwire exec asks before it starts a workspace MCP server', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      'repo/README.md': '# A cloned repository\n',
      'repo/.vscode/mcp.json': JSON.stringify({ servers: { docs: TOUCH } }),
    },
    { prefix: 'exec-mcp-consent' },
  );
  const args = (...more: string[]) => [bin, 'exec', '--sessions-dir', temp.path('sessions'), ...more];
  /** `loopwire exec` from `cwd` (the repository by default), stdin not a terminal. */
  const exec = (more: string[], cwd = temp.path('repo')) =>
    runProcess(process.execPath, args('--approve', 'read-only', ...more, 'hello'), '', undefined, { cwd });
  /** `loopwire exec` on a pseudo-terminal, `typed` its input: the output is stdout and stderr as one. */
  const execOnTerminal = (typed: string) =>
    runProcess('script', ['-qec', args('hello').map(shellWord).join(' '), '/dev/null'], typed, undefined, {
      cwd: temp.path('repo'),
    });
  const ran = () => fs.existsSync(temp.path('repo/MCP-RAN'));

  it('without a terminal and without --mcp-config runs nothing and says so in one line', async () => {
    const result = await exec([]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(ran(), false, 'the server was not started');
    const lines = result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('(session kept in'));
    assert.deepEqual(lines, [LINE]);
  });

  it('names the file as it is typed from where exec runs, outside the workspace too', async () => {
    const result = await exec(['--workspace', temp.path('repo')], temp.dir);
    assert.equal(ran(), false);
    assert.match(result.stderr, /names 1 MCP server \(docs\), .* add --mcp-config repo\/\.vscode\/mcp\.json\n/);
  });

  it('--mcp-config .vscode/mcp.json is the yes: the server starts', async () => {
    const result = await exec(['--mcp-config', '.vscode/mcp.json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(ran(), true, 'the server ran');
    assert.doesNotMatch(result.stderr, /not started without/);
  });

  it('on a terminal asks, showing the command line: no starts nothing, yes starts it', async () => {
    const no = await execOnTerminal('n\n');
    assert.match(
      no.stdout,
      /\.vscode\/mcp\.json names 1 MCP server \(docs\):\r?\n {2}docs runs sh -c 'touch MCP-RAN' \(in /,
    );
    assert.match(no.stdout, /Start it\? \(--mcp-config \.vscode\/mcp\.json says yes without asking\) \[y\/N\]/);
    assert.match(no.stdout, /\(the MCP servers of \.vscode\/mcp\.json not started\)/);
    assert.equal(ran(), false, 'no: nothing ran');
    const yes = await execOnTerminal('y\n');
    assert.match(yes.stdout, /Start it\?/);
    assert.equal(ran(), true, 'yes: the server ran');
  });

  it("asks once for all of a file's servers, each with its line; no file, no question", async () => {
    await temp.write(
      'two/.vscode/mcp.json',
      JSON.stringify({ servers: { docs: TOUCH, web: { type: 'http', url: 'https://mcp.example/x' } } }),
    );
    const said: string[] = [];
    const questions: string[] = [];
    const consent = {
      stderr: (text: string) => said.push(text),
      ask: (question: string) => {
        questions.push(question);
        return Promise.resolve(' Yes ');
      },
    };
    const config = await mcpServersOf(undefined, temp.path('two'), consent);
    assert.deepEqual(
      config.servers.map((server) => server.name),
      ['docs', 'web'],
    );
    assert.equal(questions.length, 1);
    assert.match(questions[0] ?? '', /^Start them\? /);
    assert.match(
      said.join(''),
      /names 2 MCP servers \(docs, web\):\n {2}docs runs sh .*\n {2}web connects over HTTP to https:\/\/mcp\.example\/x\n$/,
    );
    const empty = await mcpServersOf(undefined, temp.dir, consent);
    assert.deepEqual(empty, { servers: [], skipped: [] });
    assert.equal(questions.length, 1, 'no file, no question');
  });
});
