import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import type { PortAttributesProvider } from '../../../src/extension/endpoint/ports';
import { loopwire, spiesReachTheExtension, writeFixture } from './support';

// The embedded backend's port is not forwarded by a remote window (code-server auto-forwarded it): the
// backend registers a port attributes provider for its port that answers Ignore. The API is a proposal that
// this host (code-server) allows; the registration is watched on its way to the host.

type Register = (
  selector: { portRange?: [number, number] | number },
  provider: PortAttributesProvider,
) => vscode.Disposable;

/** The HTTP status that 127.0.0.1:port answers `path` with. */
function status(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('embedded backend port', function () {
  this.timeout(60_000);

  it('is marked Ignore for auto-forwarding while the backend listens', async function () {
    // What the extension registers is seen through a spy on the API: not from beside an unpacked .vsix.
    if (!spiesReachTheExtension()) this.skip();
    const api = await loopwire();
    const workspace = vscode.workspace as { registerPortAttributesProvider?: Register };
    const register = workspace.registerPortAttributesProvider;
    assert.ok(register, 'the host has the port attributes API (a proposal)');
    try {
      register.call(vscode.workspace, { portRange: [1, 2] }, { providePortAttributes: () => undefined }).dispose();
    } catch (error) {
      // A desktop VS Code of `stable` quality refuses proposals even in extension development (ports.ts):
      // there nothing is forwarded, and nothing to check. code-server, the suite's usual host, allows them.
      if (/proposal/i.test(String(error))) this.skip();
      throw error;
    }
    const registered: { selector: Parameters<Register>[0]; provider: Parameters<Register>[1]; disposed: boolean }[] =
      [];
    workspace.registerPortAttributesProvider = (selector, provider) => {
      const registration = register.call(vscode.workspace, selector, provider);
      const seen = { selector, provider, disposed: false };
      registered.push(seen);
      return new vscode.Disposable(() => {
        seen.disposed = true;
        registration.dispose();
      });
    };
    const config = vscode.workspace.getConfiguration('loopwire');
    try {
      // A new scenario list replaces the window's backend: the next task starts a new embedded server.
      const scenario = {
        scenarios: [{ name: 'ports', match: 'say hello', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] }],
      };
      await writeFixture('ports/scenario.json', JSON.stringify(scenario));
      await config.update('scenarioFiles', ['ports/scenario.json'], vscode.ConfigurationTarget.Workspace);
      const outcome = await api.agent.run('say hello', { approve: 'read-only' });
      assert.equal(outcome.ok, true, outcome.text);

      const live = registered.filter((seen) => !seen.disposed);
      assert.equal(live.length, 1, 'one provider, for the backend that listens now');
      const [{ selector, provider }] = live as [(typeof live)[number]];
      assert.ok(Array.isArray(selector.portRange), 'the selector names the port');
      const [port, end] = selector.portRange;
      assert.equal(end, port + 1, 'that port alone');
      // It is the embedded backend: it answers there (and refuses a request without its token).
      assert.ok((await status(port, '/v1/models')) >= 400);
      // The host asks with a property bag (older builds passed the port first); 5 is PortAutoForwardAction.Ignore.
      const ignore = (vscode as { PortAutoForwardAction?: { Ignore: number } }).PortAutoForwardAction?.Ignore;
      assert.equal(ignore, 5);
      assert.equal(provider.providePortAttributes({ port })?.autoForwardAction, ignore);
      assert.equal(provider.providePortAttributes(port)?.autoForwardAction, ignore);
      assert.equal(provider.providePortAttributes({ port: port + 1 }), undefined, 'other ports are not its business');
    } finally {
      workspace.registerPortAttributesProvider = register;
      await config.update('scenarioFiles', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
