import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ReadLedger, runToolCall } from '../../../../src/tools';
import { MultiRootWorkspace } from '../../../../src/workspace/multiRootWorkspace';
import { VscodeWorkspace } from '../../../../src/workspace/vscode/vscodeWorkspace';
import { fixture, readFixture, writeFixture } from '../support';

// Several folders in one window: every path starts with its folder's name. (The host opens one folder, and
// adding another would restart the extension host; the two roots are two folders of the fixture here,
// each with its own adapter, as the session builds them for a multi-root window.)

describe('VS Code adapter: multi-root workspaces', () => {
  it('prefixes paths with the folder name, routes each call, and keeps one edit within one folder', async () => {
    await writeFixture('roots/api/server.ts', 'export const port = 8080;\n');
    await writeFixture('roots/web/app.ts', 'export const port = 3000;\n');
    const open = (name: string) => VscodeWorkspace.open(vscode.Uri.file(path.join(fixture(), 'roots', name)));
    const workspace = new MultiRootWorkspace([
      { name: 'api', workspace: await open('api') },
      { name: 'web', workspace: await open('web') },
    ]);
    const context = { workspace, reads: new ReadLedger() };
    const call = (name: string, args: unknown) =>
      runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context);

    assert.equal(
      (await call('find_files', { pattern: '**/*.ts' })).output,
      "api/server.ts\nweb/app.ts\n(2 files matching '**/*.ts')",
    );
    assert.equal((await call('find_files', { pattern: 'web/**' })).output, "web/app.ts\n(1 file matching 'web/**')");
    const search = await call('search_text', { query: 'port =' });
    assert.match(
      search.output,
      /^api\/server\.ts:1: export const port = 8080;\nweb\/app\.ts:1: export const port = 3000;/,
    );
    const read = await call('read_file', { path: 'web/app.ts' });
    assert.match(read.output, /^export const port = 3000;\n\(web\/app\.ts: lines 1–1 of 1\)/);
    const unknown = await call('read_file', { path: 'app.ts' });
    assert.equal(unknown.ok, false);
    assert.match(unknown.output, /start with the folder's name \(api, web\)/);

    const edit = await call('edit_file', { path: 'web/app.ts', edits: [{ old_string: '3000', new_string: '3001' }] });
    assert.equal(edit.ok, true, edit.output);
    assert.equal(await readFixture('roots/web/app.ts'), 'export const port = 3001;\n');

    await call('read_file', { path: 'api/server.ts' });
    const both = await runToolCall(
      {
        kind: 'custom',
        name: 'apply_patch',
        input:
          '*** Begin Patch\n*** Update File: api/server.ts\n@@\n-export const port = 8080;\n+export const port = 8081;\n*** Update File: web/app.ts\n@@\n-export const port = 3001;\n+export const port = 3002;\n*** End Patch\n',
      },
      context,
    );
    assert.equal(both.ok, false);
    assert.match(both.output, /one workspace folder/);
    assert.equal(await readFixture('roots/api/server.ts'), 'export const port = 8080;\n', 'nothing was written');
  });
});
