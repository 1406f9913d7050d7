// An esbuild plugin for the CLI's bundles: the modules of src/protocol are marked free of side effects, so
// a bundle leaves out each one it uses no export of. They are — the layer rules let them import zod alone and
// hold only schema declarations — but esbuild cannot know it: a top-level `z.object(…)` is a call, so every
// module behind `export *` in src/protocol/index.ts would be kept and its schemas built at each start
// (the chat panel's messages took a third of `loopwire exec`'s load).
'use strict';
const path = require('node:path');

const protocolDir = path.join(__dirname, '..', '..', 'src', 'protocol') + path.sep;

/** @type {import('esbuild').Plugin} */
const pureProtocol = {
  name: 'pure-protocol',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === pureProtocol) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: pureProtocol,
      });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(protocolDir)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

module.exports = { pureProtocol };
