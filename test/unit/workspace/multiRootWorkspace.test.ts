import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MultiRootWorkspace } from '../../../src/workspace/multiRootWorkspace';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useTempWorkspace } from '../support/tempWorkspace';

// Several folders as one Workspace, over Node adapters: every path starts with its folder's name. (The
// extension-host suite runs the same over VS Code adapters, through the tools.)

describe('MultiRootWorkspace', () => {
  const temp = useTempWorkspace(
    { 'api/src/server.ts': 'export const port = 8080;\n', 'web/src/app.ts': 'export const port = 3000;\n' },
    { each: false, prefix: 'multiroot' },
  );
  let base: string;
  let workspace: MultiRootWorkspace;

  before(async () => {
    base = temp.dir;
    workspace = new MultiRootWorkspace([
      { name: 'api', workspace: await NodeWorkspace.open(path.join(base, 'api'), { ripgrep: null }) },
      { name: 'web', workspace: await NodeWorkspace.open(path.join(base, 'web'), { ripgrep: null }) },
    ]);
  });

  it('locates a path in the folder its first segment names', () => {
    assert.deepEqual(workspace.locate('web/src/app.ts'), {
      path: 'web/src/app.ts',
      root: path.join(base, 'web'),
      absolute: path.join(base, 'web', 'src', 'app.ts'),
    });
    assert.deepEqual(workspace.locate('./api/src//server.ts'), {
      path: 'api/src/server.ts',
      root: path.join(base, 'api'),
      absolute: path.join(base, 'api', 'src', 'server.ts'),
    });
  });

  it('refuses a path that names no folder, or leaves its folder', () => {
    assert.throws(() => workspace.locate('src/app.ts'), {
      code: 'not_found',
      message: /paths start with the folder's name \(api, web\)/,
    });
    assert.throws(() => workspace.locate('web/../api/src/server.ts'), { code: 'outside_workspace' });
    assert.throws(() => workspace.locate('web'), { code: 'invalid_path' });
  });

  it('reads, lists and searches with the folder names on every path', async () => {
    assert.equal((await workspace.readFile('api/src/server.ts')).path, 'api/src/server.ts');
    assert.deepEqual((await workspace.findFiles('**/*.ts', 10)).files, ['api/src/server.ts', 'web/src/app.ts']);
    assert.deepEqual((await workspace.findFiles('web/**', 10)).files, ['web/src/app.ts']);
    const found = await workspace.searchText({ query: 'port', isRegex: false, caseSensitive: true, maxResults: 10 });
    assert.deepEqual(
      found.matches.map((m) => m.path),
      ['api/src/server.ts', 'web/src/app.ts'],
    );
  });
});
