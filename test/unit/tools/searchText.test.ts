import * as assert from 'node:assert/strict';
import { requireRipgrep, toolBench } from './toolHarness';

// Both search engines, on the same inputs, must give the same answers.
const engines = [
  { name: 'ripgrep', ripgrep: requireRipgrep },
  { name: 'JavaScript', ripgrep: () => Promise.resolve(null) },
] as const;

for (const engine of engines) {
  describe(`search_text (${engine.name})`, () => {
    const bench = async (files: Record<string, string | Buffer>) => toolBench(files, await engine.ripgrep());

    it('clips very long lines around the match and says so', async () => {
      const line = `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}`;
      const { run } = await bench({ 'long.txt': `${line}\n` });
      const result = await run('search_text', { query: 'needle' });
      const [match, footer] = result.output.split('\n');
      assert.match(match as string, /^long\.txt:1: …a{40}NEEDLEb+…$/);
      assert.ok((match as string).length < 300);
      assert.equal(footer, '(1 match in 1 file; long lines cut to 240 characters)');
    });

    it('skips binary files, decodes invalid UTF-8 with replacement characters', async () => {
      const { run } = await bench({
        'bin.dat': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2]), Buffer.from('needle')]),
        'latin1.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
      });
      assert.equal(
        (await run('search_text', { query: 'needle' })).output,
        'latin1.txt:1: needle \uFFFD\n(1 match in 1 file)',
      );
    });

    it('keeps multi-byte characters whole across output chunk boundaries', async () => {
      const lines = Array.from({ length: 6000 }, (_, i) => `needle ${i} ${'é漢字🙂'.repeat(8)}`);
      const { run } = await bench({ 'wide.txt': `${lines.join('\n')}\n` });
      const result = await run('search_text', { query: 'needle', max_results: 1000 });
      assert.doesNotMatch(result.output, /\uFFFD/);
      const shown = result.output.split('\n').slice(0, -1);
      assert.equal(shown.length, 1000);
      shown.forEach((line, i) => assert.equal(line, `wide.txt:${i + 1}: ${lines[i]}`));
      assert.match(result.output, /\(showing 1000 of 6000 matches in 1 file; narrow the query or use include\)$/);
    });

    it('honours nested .gitignore files and never searches .git', async () => {
      const { run } = await bench({
        '.gitignore': 'build/\n',
        'pkg/.gitignore': '*.gen.ts\n!keep.gen.ts\n',
        'pkg/a.gen.ts': 'token\n',
        'pkg/keep.gen.ts': 'token\n',
        'pkg/b.ts': 'token\n',
        'build/out.js': 'token\n',
        '.git/config': 'token\n',
        '.hidden/x.txt': 'token\n',
      });
      assert.equal(
        (await run('search_text', { query: 'token' })).output,
        '.hidden/x.txt:1: token\npkg/b.ts:1: token\npkg/keep.gen.ts:1: token\n(3 matches in 3 files)',
      );
      assert.equal(
        (await run('find_files', { pattern: '**/*.ts' })).output,
        "pkg/b.ts\npkg/keep.gen.ts\n(2 files matching '**/*.ts')",
      );
    });

    it('caps results with totals, and says when the total is only a lower bound', async () => {
      const many = Array.from({ length: 150 }, () => 'hit').join('\n');
      const { run } = await bench({ 'a.txt': many, 'b.txt': 'hit\n' });
      assert.match(
        (await run('search_text', { query: 'hit' })).output,
        /\n\(showing 100 of 151 matches in 2 files; narrow the query or use include, or raise max_results \(up to 1000\)\)$/,
      );
      const huge = await bench({ 'huge.txt': Array.from({ length: 12_000 }, () => 'x').join('\n') });
      assert.match(
        (await huge.run('search_text', { query: 'x', max_results: 5 })).output,
        /\(showing 5 of more than 10000 matches in 1\+ file; /,
      );
    });
  });
}
