import * as assert from 'node:assert/strict';
import * as path from 'node:path';

// `npm start`'s search for a VS Code: the settings first, then PATH, then an earlier download; a setting
// that names nothing is reported and the search goes on.
interface Found {
  executable?: string;
  from?: string;
  missing: { from: string; file: string }[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findVscode } = require('../../../scripts/findVscode') as {
  findVscode(
    this: void,
    options: {
      root: string;
      env: Record<string, string | undefined>;
      platform: string;
      exists: (file: string) => boolean;
      readdir?: (dir: string) => string[];
    },
  ): Found;
};

describe('npm start: finding VS Code', () => {
  const bin = path.join(path.sep, 'opt', 'bin');
  const code = path.join(bin, 'code');
  const root = path.join(path.sep, 'nowhere', 'loopwire');
  const cache = path.join(root, '.vscode-test');
  const platform = 'linux';
  const find = (env: Record<string, string | undefined>, files: string[], readdir = (_dir: string): string[] => []) => {
    const all = new Set(files);
    return findVscode({ root, env, platform, exists: (file) => all.has(file), readdir });
  };

  it('takes LOOPWIRE_VSCODE before VSCODE_EXECUTABLE before PATH', () => {
    const files = ['/a/code', '/b/code', code];
    const env = { LOOPWIRE_VSCODE: '/a/code', VSCODE_EXECUTABLE: '/b/code', PATH: bin };
    assert.deepEqual(find(env, files), { executable: '/a/code', from: 'LOOPWIRE_VSCODE', missing: [] });
    assert.deepEqual(find({ ...env, LOOPWIRE_VSCODE: undefined }, files), {
      executable: '/b/code',
      from: 'VSCODE_EXECUTABLE',
      missing: [],
    });
    assert.deepEqual(find({ PATH: bin }, files), { executable: code, from: 'PATH', missing: [] });
  });

  it('reports a setting that names a missing file and goes on to the next place', () => {
    assert.deepEqual(find({ LOOPWIRE_VSCODE: '/gone/code', PATH: bin }, [code]), {
      executable: code,
      from: 'PATH',
      missing: [{ from: 'LOOPWIRE_VSCODE', file: '/gone/code' }],
    });
  });

  it('looks for code, code-insiders and codium in each PATH folder in turn', () => {
    const first = path.join(path.sep, 'first');
    const second = path.join(path.sep, 'second');
    const codium = path.join(second, 'codium');
    assert.deepEqual(find({ PATH: [first, second].join(':') }, [codium]), {
      executable: codium,
      from: 'PATH',
      missing: [],
    });
    const cmd = path.join(first, 'code-insiders.cmd');
    assert.equal(
      findVscode({ root, env: { Path: first }, platform: 'win32', exists: (file) => file === cmd }).executable,
      cmd,
    );
  });

  it('falls back to the newest complete download under .vscode-test, never a partial one', () => {
    const dirs = ['vscode-linux-x64-1.9.0', 'vscode-linux-x64-1.100.0', 'vscode-linux-x64-1.101.0', 'user-data'];
    const files = [
      ...['1.9.0', '1.100.0', '1.101.0'].map((v) => path.join(cache, `vscode-linux-x64-${v}`, 'code')),
      // 1.101.0 was cut short: no is-complete marker.
      ...['1.9.0', '1.100.0'].map((v) => path.join(cache, `vscode-linux-x64-${v}`, 'is-complete')),
    ];
    const readdir = (dir: string) => (dir === cache ? dirs : []);
    assert.deepEqual(find({ PATH: bin }, files, readdir), {
      executable: path.join(cache, 'vscode-linux-x64-1.100.0', 'code'),
      from: '.vscode-test',
      missing: [],
    });
  });

  it('finds nothing where there is nothing, so the headless demo runs', () => {
    assert.deepEqual(find({ PATH: bin }, []), { missing: [] });
  });
});
