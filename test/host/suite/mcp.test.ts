import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixture, loopwire, readFixture, spiesReachTheExtension, writeFixture } from './support';

// The window's agents get the tools of the MCP servers the workspace's .vscode/mcp.json names, once the
// user has said yes to each: the echo server of test/fixtures/mcp (written with the SDK), started by the
// extension host over stdio after the modal's Start It, its `touch` tool (which does not say it only reads)
// declined under read-only and run under all. Before the yes, nothing runs. The modal is answered through a
// spy on the API where the suite shares the extension's (the checkout's run); beside an unpacked .vsix the
// test host itself refuses modals, which must count as no.

/** The checkout (this file runs from dist-test/host/suite). */
const repoRoot = path.resolve(__dirname, '../../..');
const ECHO_SERVER = path.join(repoRoot, 'test/fixtures/mcp/echoServer.mjs');
/** New for each run: a yes kept in the workspace's state by an earlier run is for another fingerprint. */
const RUN = String(Date.now());

type ShowWarning = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/** Writes mcp.json naming the echo server, `variant` in its env: a changed variant is a changed command. */
const writeMcpJson = (variant: string) =>
  writeFixture(
    '.vscode/mcp.json',
    JSON.stringify({
      servers: {
        // The host's own runtime runs the server (Electron's, as Node, in a desktop VS Code).
        echo: {
          type: 'stdio',
          command: process.execPath,
          args: [ECHO_SERVER],
          env: { ELECTRON_RUN_AS_NODE: '1', LOOPWIRE_TEST_VARIANT: `${variant}-${RUN}` },
        },
      },
    }),
  );

/** While `body` runs, the MCP questions are recorded and answered `answer`; other warnings get no answer. */
async function answeringMcp<T>(answer: string | undefined, body: (asked: string[]) => Promise<T>): Promise<T> {
  const window = vscode.window as { showWarningMessage: ShowWarning };
  const showWarning = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = (message: string, ...rest: unknown[]) => {
    const options = rest[0] as { detail?: string } | undefined;
    if (!/MCP server/.test(message)) return Promise.resolve(undefined);
    asked.push(`${message}\n${options?.detail ?? ''}`);
    return Promise.resolve(answer);
  };
  try {
    return await body(asked);
  } finally {
    window.showWarningMessage = showWarning;
  }
}

describe('MCP servers in the extension host', function () {
  this.timeout(60_000);
  const touched = () => path.join(fixture(), 'mcp', 'touched.txt');

  before(async () => {
    const scenario = {
      scenarios: [
        {
          name: 'mcp-touch',
          match: '^mcp touch (.*)$',
          steps: [
            { output: [{ type: 'function_call', name: 'mcp__echo__touch', arguments: { path: '{{1}}' } }] },
            { output: [{ type: 'message', text: 'Asked the echo server to touch it.' }] },
          ],
        },
      ],
    };
    await writeFixture('mcp/scenario.json', JSON.stringify(scenario));
    await vscode.workspace
      .getConfiguration('loopwire')
      .update('scenarioFiles', ['mcp/scenario.json'], vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    // The next agent finds the file gone and stops the server.
    await fs.rm(path.join(fixture(), '.vscode', 'mcp.json'), { force: true });
    await fs.rm(touched(), { force: true });
  });

  it('starts no server of .vscode/mcp.json before the yes, and asks only once in a window after a no', async function () {
    await writeMcpJson('declined');
    const api = await loopwire();
    const asked = await answeringMcp(undefined, async (asked) => {
      const first = await api.agent.run(`mcp touch ${touched()}`, { approve: 'all' });
      assert.equal(first.ok, true, first.text);
      await api.agent.run(`mcp touch ${touched()}`, { approve: 'all' });
      return asked;
    });
    await assert.rejects(fs.access(touched()), 'no server ran, so nothing was touched');
    // Beside a .vsix the host refused the modal (a no too), unseen by the spy: the question's checks are
    // skipped, out loud (the test shows as pending there), not passed.
    if (!spiesReachTheExtension()) this.skip();
    assert.equal(asked.length, 1, `asked once, the no kept for the window (${asked.join(' | ')})`);
    assert.match(asked[0] ?? '', /^Start the MCP server 'echo' that .*\.vscode\/mcp\.json names\?\n/);
    assert.ok(asked[0]?.includes(`runs ${process.execPath} ${ECHO_SERVER} (in ${fixture()}`), asked[0]);
  });

  it("after Start It runs the server's tools; read-only declines one that acts; a changed command asks again", async function () {
    // The yes is given through the spy: beside an unpacked .vsix it cannot reach the extension.
    if (!spiesReachTheExtension()) this.skip();
    // Another command than the one declined above: asked about again, though the window said no to that one.
    await writeMcpJson('allowed');
    const api = await loopwire();
    const asked = await answeringMcp('Start It', async (asked) => {
      const declined = await api.agent.run(`mcp touch ${touched()}`, { approve: 'read-only' });
      assert.deepEqual(declined, { ok: true, text: 'Asked the echo server to touch it.', turns: 2, transport: 'ws' });
      await assert.rejects(fs.access(touched()), 'the declined call did not run');

      const allowed = await api.agent.run(`mcp touch ${touched()}`, { approve: 'all' });
      assert.equal(allowed.ok, true, allowed.text);
      assert.equal(await readFixture('mcp/touched.txt'), 'touched');
      return asked;
    });
    assert.equal(asked.length, 1, 'the yes is kept: the second task did not ask');
  });
});
