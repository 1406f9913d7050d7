// An esbuild plugin for the CLI's bundles: gpt-tokenizer's BPE ranks (o200k_base: 200,000 token strings,
// 2.4 MB of array literal) leave the bundle for a JSON file beside it, read when the tokenizer is first used
// (src/server/tokenizer.ts). In the bundle, V8 scans the literal on every start of every command that holds
// it, tokenizing or not; from the file, a start that never tokenizes reads none of it, and the first count
// reads and `JSON.parse`s it, quicker than compiling the literal. test/unit/ranksBeside.test.ts checks that
// the file holds exactly the package's ranks.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

/** The ranks modules: `gpt-tokenizer/{esm,cjs}/bpeRanks/NAME.js`. */
const RANKS = /[\\/]gpt-tokenizer[\\/](esm|cjs)[\\/]bpeRanks[\\/](\w+)\.js$/;

/** Each rank is a token's text, or its bytes where they are not UTF-8; JSON carries both, but no holes. */
function checkRanks(ranks, file) {
  if (!Array.isArray(ranks)) throw new Error(`${file}: its default export is not an array of ranks`);
  for (let rank = 0; rank < ranks.length; rank++) {
    const value = ranks[rank];
    const bytes = Array.isArray(value) && value.every((byte) => Number.isInteger(byte) && byte >= 0 && byte < 256);
    if (typeof value !== 'string' && !bytes)
      throw new Error(`${file}: rank ${rank} is neither a string nor bytes; the JSON form cannot hold it`);
  }
}

/** @type {import('esbuild').Plugin} */
const ranksBeside = {
  name: 'ranks-beside',
  setup(build) {
    const { outdir, outfile } = build.initialOptions;
    const dir = outdir ?? path.dirname(outfile ?? '.');
    build.onLoad({ filter: RANKS }, async (args) => {
      const name = `${RANKS.exec(args.path)?.[2]}.json`;
      const loaded = await import(pathToFileURL(args.path).href);
      // An ES module's default export, or a CommonJS one's `exports.default`.
      const ranks = loaded.default?.default ?? loaded.default;
      checkRanks(ranks, args.path);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), JSON.stringify(ranks));
      return {
        contents: [
          `// ${name}: gpt-tokenizer's ranks, beside this bundle (scripts/lib/ranksBeside.js)`,
          "import { readFileSync } from 'node:fs';",
          "import { join } from 'node:path';",
          `export default JSON.parse(readFileSync(join(__dirname, ${JSON.stringify(name)}), 'utf8'));`,
          '',
        ].join('\n'),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

module.exports = { ranksBeside, RANKS };
