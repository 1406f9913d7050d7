import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { expandVariables } from '../../../src/workspace/shared/vscodeVariables';

// VS Code's `${…}` variables, one expansion for .vscode/tasks.json and .vscode/mcp.json.

describe('VS Code variables in the files Loopwire reads', () => {
  const values = { workspaceFolder: '/work/demo', cwd: '/work/demo', env: { TOKEN: 'abc' } };
  const keep = (whole: string) => whole;

  it('expands the workspace folder, its name, the home folder, the separator and env:NAME', () => {
    assert.equal(
      expandVariables('${workspaceFolder}/a ${workspaceRoot} ${workspaceFolderBasename} ${cwd}', values, keep),
      '/work/demo/a /work/demo demo /work/demo',
    );
    assert.equal(
      expandVariables('${userHome}${pathSeparator}x${/}y', values, keep),
      `${os.homedir()}${path.sep}x${path.sep}y`,
    );
    assert.equal(expandVariables('${env:TOKEN}-${env:MISSING}', values, keep), 'abc-');
  });

  it('hands a variable it does not know to the caller: kept as written, or refused', () => {
    assert.equal(expandVariables('${input:key} ${command:x}', values, keep), '${input:key} ${command:x}');
    assert.throws(
      () =>
        expandVariables('${input:key}', values, (whole) => {
          throw new Error(`not expanded: ${whole}`);
        }),
      /not expanded: \$\{input:key\}/,
    );
    assert.equal(expandVariables('${cwd}', { workspaceFolder: '/w' }, keep), '${cwd}', 'no cwd where none is given');
  });
});
