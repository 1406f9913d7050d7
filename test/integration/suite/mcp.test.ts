import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixture, loopwire, readFixture, writeFixture } from './support';

// The window's agents get the tools of the MCP servers the workspace's .vscode/mcp.json names: the echo
// server of test/fixtures/mcp (written with the SDK), started by the extension host over stdio, its `touch`
// tool (which does not say it only reads) declined under read-only and run under all.

/** The checkout (this file runs from dist-test/integration/suite). */
const repoRoot = path.resolve(__dirname, '../../..');
const ECHO_SERVER = path.join(repoRoot, 'test/fixtures/mcp/echoServer.mjs');

describe('MCP servers in the extension host', () => {
  after(async () => {
    // The next agent finds the file gone and stops the server.
    await fs.rm(path.join(fixture(), '.vscode', 'mcp.json'), { force: true });
  });

  it("runs a tool of the workspace's .vscode/mcp.json; read-only declines one that acts", async () => {
    await writeFixture(
      '.vscode/mcp.json',
      JSON.stringify({
        servers: {
          // The host's own runtime runs the server (Electron's, as Node, in a desktop VS Code).
          echo: { type: 'stdio', command: process.execPath, args: [ECHO_SERVER], env: { ELECTRON_RUN_AS_NODE: '1' } },
        },
      }),
    );
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
    const touched = path.join(fixture(), 'mcp', 'touched.txt');
    const api = await loopwire();

    const declined = await api.agent.run(`mcp touch ${touched}`, { approve: 'read-only' });
    assert.deepEqual(declined, { ok: true, text: 'Asked the echo server to touch it.', turns: 2, transport: 'ws' });
    await assert.rejects(fs.access(touched), 'the declined call did not run');

    const allowed = await api.agent.run(`mcp touch ${touched}`, { approve: 'all' });
    assert.equal(allowed.ok, true, allowed.text);
    assert.equal(await readFixture('mcp/touched.txt'), 'touched');
  });
});
