import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import * as vscode from 'vscode';
import manifest from '../../../package.json';
import type { LoopwireApi } from '../../../src/extension/api';

// The smoke test of the extension host itself: the extension under development is installed, activates
// and hands back its API, and the window opened the fixture workspace the runner copied for this run.

describe('activation', () => {
  it('activates and returns an API that reports the manifest version', async () => {
    const extension = vscode.extensions.getExtension<LoopwireApi>('loopwire.loopwire');
    assert.ok(extension, 'loopwire.loopwire is not installed in the test host');
    const started = performance.now();
    const api = await extension.activate();
    // Loading the bundle and activate(): what a window pays before first use. Printed for the closing note.
    console.log(`activation: ${(performance.now() - started).toFixed(1)} ms (bundle load and activate())`);
    assert.ok(extension.isActive);
    assert.equal(typeof api.version, 'string');
    assert.equal(api.version, manifest.version);
    // Under `npm run integration:vsix` the extension is the unpacked package, not this checkout.
    const expected = process.env['LOOPWIRE_EXTENSION_PATH'];
    if (expected) assert.equal(realpathSync(extension.extensionPath), realpathSync(expected));
  });

  it('opened the fixture workspace copy', () => {
    const fixture = process.env['LOOPWIRE_FIXTURE'];
    assert.ok(fixture, 'LOOPWIRE_FIXTURE is not set: run the suite through test/host/runTests.ts');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder is open');
    assert.equal(realpathSync(folder.uri.fsPath), realpathSync(fixture));
  });
});
