// Bundles everything `main` and `bin` in package.json point to. Type-checking is separate (`tsc --noEmit`),
// as in the official esbuild sample: esbuild only strips types, so a bundle can build while types are wrong.
// Usage: node esbuild.js [--production] [--watch]
//        node esbuild.js --tests [--watch]   the extension-host test suite and its runner, into dist-test/
'use strict';
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { pureProtocol } = require('./scripts/lib/pureProtocol');
const { ranksBeside } = require('./scripts/lib/ranksBeside');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Optional native speed-ups of `ws`; it falls back to JavaScript when they are absent. */
const wsOptional = ['bufferutil', 'utf-8-validate'];

/** @type {import('esbuild').BuildOptions} */
const nodeDefaults = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  external: wsOptional,
  // ESM builds first: jsonc-parser's `main` is a UMD wrapper whose dynamic requires a bundle cannot follow.
  mainFields: ['module', 'main'],
};

/**
 * `loopwire.ts`'s `import('./xCommand')` (or a room's entry, `import('./room/roomMain')`) stays a run-time
 * load of the bundle `dist/cli/xCommand.js` (`dist/cli/roomMain.js`): with dynamic import unsupported,
 * esbuild turns it into a `require`, the CommonJS loader's quicker path. Bundled into the dispatcher instead,
 * a command would be compiled at every start, and web-tree-sitter's loader finds no `require` there.
 */
const lazyCommands = {
  name: 'lazy-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(\w+\/)?\w+(Command|Main)$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: `./${path.basename(args.path)}.js`, external: true } : undefined,
    );
  },
};

/** The commands `loopwire` loads on demand: `src/cli/*Command.ts`, and each room's `src/cli/ROOM/*Main.ts`. */
function commandEntries() {
  const cli = path.join('src', 'cli');
  const rooms = fs.readdirSync(cli, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const mains = rooms.flatMap((room) => findFiles(path.join(cli, room.name), 'Main.ts'));
  return [...findFiles(cli, 'Command.ts'), ...mains].map((file) => ({ in: file, out: path.basename(file, '.ts') }));
}

/**
 * The CLI's bundles are minified in every build: V8 compiles a bundle on each start, at a cost that grows
 * with its bytes, and a command's start is what its user waits for. Names are kept for errors and stacks.
 */
const cliDefaults = { ...nodeDefaults, minify: true, keepNames: true };

/** Each CLI bundle holds only the schemas it uses; the tokenizer's ranks lie beside it (scripts/lib/). */
const cliPlugins = [pureProtocol, ranksBeside];

/** One entry per shipped artifact. */
/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...nodeDefaults,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    // Provided by the extension host at run time; never bundled.
    external: [...wsOptional, 'vscode'],
  },
  {
    // The window's runtime (agent, tools, adapter, bundled backend) and the work of the commands that start
    // it (src/extension/runtimeBundle.ts), required by extension.js on first use so that activation loads a
    // few kilobytes, not the tokenizer. Its ranks lie beside it (dist/o200k_base.json),
    // read at the embedded backend's first count: two thirds of the bundle's bytes that loading the session,
    // when the panel first shows, no longer compiles.
    ...nodeDefaults,
    entryPoints: ['src/extension/runtimeBundle.ts'],
    outfile: 'dist/runtime.js',
    external: [...wsOptional, 'vscode'],
    plugins: [ranksBeside],
  },
  {
    // The chat panel's page script: a browser bundle, one file, loaded under the panel's CSP.
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    bundle: true,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    minify: production,
    sourcemap: production ? false : 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  },
  // The bins of package.json, named as they are run. `loopwire` is a small dispatcher: each command is
  // its own bundle beside it (below), required when that command runs, so a start reads and compiles
  // only what the command uses (`--help` none of it, `apply-patch` the edit engine alone).
  ...Object.entries({ loopwire: 'loopwire.ts', 'loopwire-server': 'loopwireServer.ts' }).map(([bin, entry]) => ({
    ...cliDefaults,
    entryPoints: [`src/cli/${entry}`],
    outfile: `dist/cli/${bin}.js`,
    banner: { js: '#!/usr/bin/env node' },
    plugins: bin === 'loopwire' ? [lazyCommands, ...cliPlugins] : cliPlugins,
    ...(bin === 'loopwire' ? { supported: { 'dynamic-import': false } } : {}),
  })),
  {
    // The commands `loopwire` loads on demand, one self-contained bundle each, named as their sources.
    ...cliDefaults,
    entryPoints: commandEntries(),
    outdir: path.join('dist', 'cli'),
    plugins: cliPlugins,
  },
];

/** Every file under `dir` whose name ends with `suffix`, sorted, so the bundle list is deterministic. */
function findFiles(dir, suffix) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return findFiles(file, suffix);
      return entry.name.endsWith(suffix) ? [file] : [];
    })
    .sort();
}

/**
 * The extension-host suite (test/host), never shipped: the suite's entry (`run()`, loaded by the extension host), one
 * bundle per `*.test.ts` found now (the entry runs every `*.test.js` beside it) and the runner that starts
 * VS Code. `vscode` comes from the host and mocha from node_modules, so every test file shares one mocha.
 */
function testTargets() {
  const suite = path.join('test', 'host', 'suite');
  return [
    {
      ...nodeDefaults,
      entryPoints: [path.join(suite, 'index.ts'), ...findFiles(suite, '.test.ts')],
      outbase: suite,
      outdir: path.join('dist-test', 'host', 'suite'),
      external: [...wsOptional, 'vscode', 'mocha'],
    },
    {
      ...nodeDefaults,
      entryPoints: [path.join('test', 'host', 'runTests.ts')],
      outfile: path.join('dist-test', 'host', 'runTests.js'),
      packages: 'external',
    },
  ];
}

/** Bin files must be executable when run from a checkout, not only after `npm install` links them. */
const markExecutable = {
  name: 'mark-executable',
  setup(build) {
    build.onEnd((result) => {
      const outfile = build.initialOptions.outfile;
      if (result.errors.length === 0 && outfile && build.initialOptions.banner) fs.chmodSync(outfile, 0o755);
    });
  },
};

/** VS Code's icon font for the panel, shipped beside the bundles (the .vsix carries no node_modules). */
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, file), path.join(to, file));
}

/**
 * The shell parser's WebAssembly (tree-sitter and its bash grammar, src/tools/shellParse.ts), beside the
 * bundles in dist/ (the CLI's in dist/cli/ look one folder up): a bundle cannot hold it, nor a .vsix node_modules.
 */
function copyShellParser() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
  for (const file of ['tree-sitter.wasm', 'tree-sitter-bash.wasm'])
    fs.copyFileSync(path.join(from, file), path.join(__dirname, 'dist', file));
}

async function main() {
  const outputs = tests ? testTargets() : targets;
  fs.rmSync(path.join(__dirname, tests ? 'dist-test' : 'dist'), { recursive: true, force: true });
  if (!tests) {
    copyCodicons();
    copyShellParser();
  }
  const contexts = await Promise.all(
    outputs.map((target) => esbuild.context({ ...target, plugins: [...(target.plugins ?? []), markExecutable] })),
  );
  if (watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    console.log(`esbuild: watching ${outputs.length} bundles`);
    return;
  }
  try {
    await Promise.all(contexts.map((context) => context.rebuild()));
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
