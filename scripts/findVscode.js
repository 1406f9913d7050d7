// Where `npm start` finds a VS Code to open Loopwire in, in order: LOOPWIRE_VSCODE or VSCODE_EXECUTABLE,
// `code` (or `code-insiders`, `codium`) on PATH, a copy @vscode/test-electron downloaded earlier into
// .vscode-test/. Pure (environment and file checks injected), so the order is unit-tested.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const isFile = (file) => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Executables that test-electron's downloads leave under .vscode-test/, per platform. */
function downloadedCopies(root, exists) {
  const base = path.join(root, '.vscode-test');
  let names;
  try {
    names = fs.readdirSync(base).filter((name) => name.startsWith('vscode-'));
  } catch {
    return [];
  }
  return names
    .sort()
    .reverse()
    .flatMap((name) => [
      path.join(base, name, 'code'),
      path.join(base, name, 'Code.exe'),
      path.join(base, name, 'Visual Studio Code.app', 'Contents', 'Resources', 'app', 'bin', 'code'),
      path.join(base, name, 'VSCode-linux-x64', 'code'),
    ])
    .filter(exists);
}

/**
 * The VS Code to launch, and where it was found; undefined when there is none here.
 * @param {{ env?: Record<string, string | undefined>, root: string, exists?: (file: string) => boolean }} options
 */
function findVscode({ env = process.env, root, exists = isFile }) {
  for (const key of ['LOOPWIRE_VSCODE', 'VSCODE_EXECUTABLE']) {
    const value = env[key];
    if (value) return exists(value) ? { executable: value, from: key } : { missing: value, from: key };
  }
  const windows = process.platform === 'win32';
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean))
    for (const name of ['code', 'code-insiders', 'codium']) {
      const candidate = path.join(dir, windows ? `${name}.cmd` : name);
      if (exists(candidate)) return { executable: candidate, from: 'PATH' };
    }
  const [downloaded] = downloadedCopies(root, exists);
  return downloaded ? { executable: downloaded, from: '.vscode-test' } : undefined;
}

module.exports = { findVscode };
