// Bundles everything `main` and `bin` in package.json point to. Type-checking is separate (`tsc --noEmit`),
// as in the official esbuild sample: esbuild only strips types, so a bundle can build while types are wrong.
// Usage: node esbuild.js [--production] [--watch]
'use strict';
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

/** One entry per shipped artifact. The webview (platform 'browser') joins this list with the chat panel. */
/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...nodeDefaults,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    // Provided by the extension host at run time; never bundled.
    external: [...wsOptional, 'vscode'],
  },
  // The bins of package.json, named as they are run.
  ...Object.entries({ loopwire: 'loopwire.ts', 'loopwire-server': 'loopwireServer.ts' }).map(([bin, entry]) => ({
    ...nodeDefaults,
    entryPoints: [`src/cli/${entry}`],
    outfile: `dist/cli/${bin}.js`,
    banner: { js: '#!/usr/bin/env node' },
  })),
];

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

async function main() {
  fs.rmSync(path.join(__dirname, 'dist'), { recursive: true, force: true });
  const contexts = await Promise.all(
    targets.map((target) => esbuild.context({ ...target, plugins: [markExecutable] })),
  );
  if (watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    console.log(`esbuild: watching ${targets.length} bundles`);
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
