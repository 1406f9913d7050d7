import * as assert from 'node:assert/strict';
import * as path from 'node:path';

// `npm start`'s search for a VS Code: the settings first, then PATH, then an earlier download.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findVscode } = require('../../../scripts/findVscode') as {
  findVscode(
    this: void,
    options: {
      env: Record<string, string | undefined>;
      root: string;
      exists: (file: string) => boolean;
    },
  ): { executable?: string; missing?: string; from: string } | undefined;
};

describe('npm start: finding VS Code', () => {
  const bin = path.join(path.sep, 'opt', 'bin');
  const code = path.join(bin, process.platform === 'win32' ? 'code.cmd' : 'code');
  const root = path.join(path.sep, 'nowhere', 'loopwire');

  it('takes LOOPWIRE_VSCODE before VSCODE_EXECUTABLE before PATH, and says when a named one is missing', () => {
    const all = new Set(['/a/code', '/b/code', code]);
    const exists = (file: string) => all.has(file);
    const env = { LOOPWIRE_VSCODE: '/a/code', VSCODE_EXECUTABLE: '/b/code', PATH: bin };
    assert.deepEqual(findVscode({ env, root, exists }), { executable: '/a/code', from: 'LOOPWIRE_VSCODE' });
    assert.deepEqual(findVscode({ env: { ...env, LOOPWIRE_VSCODE: undefined }, root, exists }), {
      executable: '/b/code',
      from: 'VSCODE_EXECUTABLE',
    });
    assert.deepEqual(findVscode({ env: { PATH: bin }, root, exists }), { executable: code, from: 'PATH' });
    assert.deepEqual(findVscode({ env: { LOOPWIRE_VSCODE: '/gone/code', PATH: bin }, root, exists }), {
      missing: '/gone/code',
      from: 'LOOPWIRE_VSCODE',
    });
  });

  it('finds nothing where there is nothing, so the headless demo runs', () => {
    assert.equal(findVscode({ env: { PATH: bin }, root, exists: () => false }), undefined);
  });
});
