import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { repoRoot } from './support/runProcess';

// The CLI's bundles read the tokenizer's ranks from the JSON file the build puts beside them
// (scripts/lib/ranksBeside.js): it must hold exactly the package's ranks, or every count would be wrong.

describe('build: the ranks beside the CLI bundles', () => {
  it('dist/cli/o200k_base.json holds gpt-tokenizer’s o200k_base ranks exactly', () => {
    const file = path.join(repoRoot, 'dist', 'cli', 'o200k_base.json');
    const beside = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    assert.equal(ranks.length, 199_998);
    assert.deepStrictEqual(beside, ranks);
  });
});
