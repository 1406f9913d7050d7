import * as assert from 'node:assert/strict';
import { accessSync, constants, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot as root, runProcess as exec } from './support/runProcess';

// What `npm run build` produces and the manifest promises: checked on the built files, as a user gets them.

interface Manifest {
  name: string;
  publisher: string;
  displayName: string;
  version: string;
  main: string;
  icon: string;
  bin: Record<string, string>;
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: { commands: { command: string; title: string; category: string }[] };
}
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

describe('build: the manifest and what it points to', () => {
  before(() => {
    for (const file of [manifest.main, ...Object.values(manifest.bin)]) {
      try {
        accessSync(path.join(root, file));
      } catch {
        throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does)`);
      }
    }
  });

  it('is a real extension manifest', () => {
    assert.equal(manifest.name, 'loopwire');
    assert.equal(manifest.publisher, 'loopwire');
    assert.equal(manifest.displayName, 'Loopwire');
    accessSync(path.join(root, manifest.icon));
    for (const command of manifest.contributes.commands) assert.equal(command.category, 'Loopwire', command.command);
  });

  it('supports the VS Code that @types/vscode describes, below the 1.139 test host', () => {
    const supported = /^\^(\d+)\.(\d+)\.0$/.exec(manifest.engines.vscode);
    assert.ok(supported, `engines.vscode should be ^MAJOR.MINOR.0, is ${manifest.engines.vscode}`);
    assert.equal(manifest.devDependencies['@types/vscode'], `${supported[1]}.${supported[2]}.0`);
    assert.ok(Number(supported[1]) === 1 && Number(supported[2]) <= 138);
  });

  it('main is one CommonJS bundle that leaves vscode to the host', () => {
    const bundle = readFileSync(path.join(root, manifest.main), 'utf8');
    assert.match(bundle, /require\("vscode"\)/);
    assert.match(bundle, /activate/);
    assert.doesNotMatch(bundle, /require\("\.\.?\//, 'a bundle must not require files beside it');
    // Activation loads this file only; the agent, zod and the tokenizer come with dist/runtime.js on first use.
    assert.ok(
      bundle.length < 64 * 1024,
      `dist/extension.js is ${Math.round(bundle.length / 1024)} KB: what pulled in the runtime?`,
    );
    // Nothing configures a copy of @vscode/l10n in this bundle (l10nSetup.ts runs in runtime.js): one here
    // would say its strings in English. What activation runs translates with `vscode.l10n`.
    assert.doesNotMatch(
      bundle,
      /expected a string as the first argument to l10n\.t/,
      '@vscode/l10n is in extension.js',
    );
  });

  for (const [bin, file] of Object.entries(manifest.bin)) {
    describe(bin, () => {
      const binPath = path.join(root, file);

      it('is an executable Node script with a shebang', () => {
        assert.ok(readFileSync(binPath, 'utf8').startsWith('#!/usr/bin/env node\n'));
        accessSync(binPath, constants.X_OK);
      });

      it('prints --help and exits 0, run directly', async () => {
        const result = await exec(binPath, ['--help']);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, new RegExp(`^usage: ${bin}`));
        assert.equal(result.stderr, '');
      });

      it('prints its version', async () => {
        const result = await exec(process.execPath, [binPath, '--version']);
        assert.equal(result.code, 0);
        assert.equal(result.stdout, `${manifest.version}\n`);
      });

      it('refuses what it does not know with exit code 2 and the usage', async () => {
        const result = await exec(process.execPath, [binPath, '--no-such-flag']);
        assert.equal(result.code, 2);
        assert.match(result.stderr, /unknown/i);
        assert.match(result.stderr, /usage:/);
        assert.equal(result.stdout, '');
      });
    });
  }
});

describe('build: the packaged extension holds only what runs', () => {
  it('vsce lists exactly the bundles, the codicon font, media, the docs, the manifest and its translations (not the CLI bins)', async function () {
    this.timeout(60_000);
    const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
    const result = await exec(process.execPath, [vsce, 'ls']);
    assert.equal(result.code, 0, result.stderr);
    const files = result.stdout.trim().split('\n').sort();
    const allowed =
      /^(dist\/extension\.js|dist\/runtime\.js|dist\/o200k_base\.json|dist\/tree-sitter(-bash)?\.wasm|dist\/webview\.js|dist\/codicons\/codicon\.(css|ttf)|media\/.+|README\.md|LICENSE|CHANGELOG\.md|package\.json|package\.nls(\.[a-z-]+)?\.json|l10n\/bundle\.l10n(\.[a-z-]+)?\.json)$/;
    for (const file of files) assert.match(file, allowed);
    for (const needed of [
      manifest.main.replace(/^\.\//, ''),
      'dist/runtime.js',
      'dist/o200k_base.json',
      'dist/tree-sitter.wasm',
      'dist/tree-sitter-bash.wasm',
      'dist/webview.js',
      'dist/codicons/codicon.ttf',
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'l10n/bundle.l10n.json',
      'l10n/bundle.l10n.zh-cn.json',
      manifest.icon,
    ]) {
      assert.ok(files.includes(needed), `${needed} is not packaged`);
    }
  });
});
