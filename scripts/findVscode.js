// Where `npm start` finds a VS Code to open Loopwire in, in order: LOOPWIRE_VSCODE or VSCODE_EXECUTABLE,
// `code` (or `code-insiders`, `codium`) on PATH, a copy @vscode/test-electron downloaded earlier into
// .vscode-test/. Pure (environment, platform and file system injected), so the order is unit-tested.
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

const listDir = (dir) => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

/** Where the executable sits in a test-electron download folder, per platform (its own layout). */
function executablesIn(folder, platform) {
  if (platform === 'win32') return [path.join(folder, 'Code.exe')];
  if (platform === 'darwin') {
    const app = path.join(folder, 'Visual Studio Code.app', 'Contents');
    return [path.join(app, 'Resources', 'app', 'bin', 'code'), path.join(app, 'MacOS', 'Electron')];
  }
  return [path.join(folder, 'code')];
}

/**
 * Executables of complete test-electron downloads under .vscode-test/, newest version first. test-electron
 * writes `is-complete` last, so a download cut short is never picked.
 */
function downloadedCopies(root, { exists, readdir, platform }) {
  const base = path.join(root, '.vscode-test');
  return readdir(base)
    .filter((name) => name.startsWith('vscode-') && exists(path.join(base, name, 'is-complete')))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    .flatMap((name) => executablesIn(path.join(base, name), platform))
    .filter(exists);
}

/**
 * The VS Code to launch and where it was found (`executable` and `from` are absent when there is none
 * here), plus each setting that names a file that does not exist (`missing`), so the caller can say so.
 * @param {{ root: string, env?: Record<string, string | undefined>, platform?: string,
 *           exists?: (file: string) => boolean, readdir?: (dir: string) => string[] }} options
 * @returns {{ executable?: string, from?: string, missing: { from: string, file: string }[] }}
 */
function findVscode({ root, env = process.env, platform = process.platform, exists = isFile, readdir = listDir }) {
  const missing = [];
  for (const key of ['LOOPWIRE_VSCODE', 'VSCODE_EXECUTABLE']) {
    const file = env[key];
    if (!file) continue;
    if (exists(file)) return { executable: file, from: key, missing };
    missing.push({ from: key, file });
  }
  const names = ['code', 'code-insiders', 'codium'].map((name) => (platform === 'win32' ? `${name}.cmd` : name));
  // On Windows the PATH variable is spelt `Path`.
  const pathVar = env.PATH ?? env.Path ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const dir of pathVar.split(delimiter).filter(Boolean))
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (exists(candidate)) return { executable: candidate, from: 'PATH', missing };
    }
  const [downloaded] = downloadedCopies(root, { exists, readdir, platform });
  return downloaded ? { executable: downloaded, from: '.vscode-test', missing } : { missing };
}

module.exports = { findVscode };
