import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';

// `loopwire apply-patch`, run as a user runs it: the built bin, a patch on stdin, a real folder. Every
// refusal is checked byte for byte against the folder as it was: "nothing was changed" must be true.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const applyPatch = (dir: string, patch: string, ...flags: string[]) =>
  runProcess(process.execPath, [bin, 'apply-patch', '--cwd', dir, ...flags], patch);

const patchOf = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

/** Every file under `dir` (symlinks as their target text) with its bytes, for before/after comparisons. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full).split(path.sep).join('/');
    if (entry.isSymbolicLink()) out[name] = `-> ${await fs.readlink(full)}`;
    else if (entry.isFile()) out[name] = (await fs.readFile(full)).toString('base64');
  }
  return out;
}

describe('cli: loopwire apply-patch', () => {
  let base: string;
  let dir: string;
  let outside: string;
  beforeEach(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-cli-patch-'));
    dir = path.join(base, 'project');
    outside = path.join(base, 'outside');
    await fs.mkdir(path.join(dir, 'src'), { recursive: true });
    await fs.mkdir(path.join(dir, '.git'));
    await fs.mkdir(outside);
    await fs.writeFile(path.join(dir, 'src/a.ts'), 'export const a = 1;\nexport const b = 2;\n');
    await fs.writeFile(path.join(dir, 'src/crlf.txt'), '\uFEFFone\r\ntwo\r\nthree');
    await fs.writeFile(path.join(dir, 'old.txt'), 'to be removed\n');
    await fs.writeFile(path.join(dir, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await fs.writeFile(path.join(dir, '.git/config'), '[core]\n');
    await fs.writeFile(path.join(outside, 'secret.txt'), 'secret\n');
    await fs.symlink(outside, path.join(dir, 'out'));
    await fs.symlink(path.join(dir, '.git'), path.join(dir, 'gitlink'));
  });
  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  it('applies adds, updates, moves and deletes together, keeping each file’s format and mode', async () => {
    const patch = patchOf(
      '*** Add File: src/new/created.ts',
      '+export const created = true;',
      '*** Update File: src/a.ts',
      '@@',
      '-export const b = 2;',
      '+export const b = 3;',
      '*** Update File: src/crlf.txt',
      '@@',
      ' one',
      '-two',
      '+TWO',
      '*** Update File: run.sh',
      '*** Move to: bin/run.sh',
      '@@',
      '-echo hi',
      '+echo hello',
      '*** Delete File: old.txt',
    );
    const result = await applyPatch(dir, patch);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      [
        'A src/new/created.ts (+1 -0)',
        'M src/a.ts (+1 -1)',
        // The added line break at the end (see below) is an added empty line in the plan's lines.
        'M src/crlf.txt (+2 -1)',
        'R run.sh -> bin/run.sh (+1 -1)',
        'D old.txt (+0 -1)',
        'applied: 5 files changed',
        '',
      ].join('\n'),
    );
    const read = (name: string) => fs.readFile(path.join(dir, name), 'utf8');
    assert.equal(await read('src/new/created.ts'), 'export const created = true;\n');
    assert.equal(await read('src/a.ts'), 'export const a = 1;\nexport const b = 3;\n');
    // BOM and CRLF kept; as Codex, the updated file ends with a line break it lacked.
    assert.equal(await read('src/crlf.txt'), '\uFEFFone\r\nTWO\r\nthree\r\n');
    assert.equal(await read('bin/run.sh'), '#!/bin/sh\necho hello\n');
    assert.equal((await fs.stat(path.join(dir, 'bin/run.sh'))).mode & 0o777, 0o755);
    await assert.rejects(fs.stat(path.join(dir, 'run.sh')), { code: 'ENOENT' });
    await assert.rejects(fs.stat(path.join(dir, 'old.txt')), { code: 'ENOENT' });
    // No temp file is left next to any target.
    const names = Object.keys(await tree(dir));
    assert.deepEqual(
      names.filter((name) => !/^(src|bin|\.git|out|gitlink)\b/.test(name)),
      [],
    );
    assert.ok(
      names.every((name) => !name.includes('.loopwire')),
      names.join(', '),
    );
  });

  it('--check writes nothing, --diff prints the unified diff', async () => {
    const before = await tree(dir);
    const patch = patchOf('*** Update File: src/a.ts', '@@', '-export const a = 1;', '+export const a = 10;');
    const checked = await applyPatch(dir, patch, '--check', '--diff');
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /^diff --git a\/src\/a\.ts b\/src\/a\.ts\n/);
    assert.match(checked.stdout, /\n-export const a = 1;\n\+export const a = 10;\n/);
    assert.match(checked.stdout, /check only: nothing was written\n$/);
    assert.deepEqual(await tree(dir), before);
  });

  it('says so, and writes nothing, when the patch changes nothing', async () => {
    const before = await tree(dir);
    const patch = patchOf('*** Update File: src/a.ts', '@@', '-export const a = 1;', '+export const a = 1;');
    const result = await applyPatch(dir, patch);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /= src\/a\.ts \(no change\)\nnothing to change/);
    assert.deepEqual(await tree(dir), before);
  });

  // Targets are functions: the folders exist only once beforeEach has run.
  const escapes: Array<[string, () => string, RegExp]> = [
    ['a ".." segment', () => '../outside/secret.txt', /'\.\.'/],
    ['an absolute path', () => path.join(outside, 'secret.txt'), /absolute path/],
    ['a symlink that leads out', () => 'out/secret.txt', /leads out of the folder through a symlink/],
    ['a path under .git/', () => '.git/config', /under \.git\//],
    ['a symlink into .git/', () => 'gitlink/config', /into \.git\/ through a symlink/],
  ];
  for (const [what, target, reason] of escapes) {
    it(`refuses ${what}, and changes nothing anywhere`, async () => {
      const name = target();
      const before = { inside: await tree(dir), outside: await tree(outside) };
      for (const section of [
        ['*** Update File: ' + name, '@@', '-secret', '+stolen'],
        ['*** Add File: ' + name.replace('secret.txt', 'planted.txt').replace('config', 'hooks/pre-commit'), '+x'],
        ['*** Delete File: ' + name],
        [
          '*** Update File: src/a.ts',
          '*** Move to: ' + name.replace('secret.txt', 'moved.ts'),
          '@@',
          ' export const a = 1;',
        ],
      ]) {
        // The escape comes second, after a section that would apply: nothing of either may land.
        const patch = patchOf('*** Add File: src/first.ts', '+first', ...section);
        const result = await applyPatch(dir, patch);
        assert.equal(result.code, 1, `${section[0]}: ${result.stdout}`);
        assert.match(result.stderr, reason, section[0]);
        assert.match(result.stderr, /Nothing was changed\.\n$/);
        assert.equal(result.stdout, '');
      }
      assert.deepEqual({ inside: await tree(dir), outside: await tree(outside) }, before);
    });
  }

  it('all or nothing: a patch failing in its third file leaves the first two untouched', async () => {
    const before = await tree(dir);
    const patch = patchOf(
      '*** Update File: src/a.ts',
      '@@',
      '-export const a = 1;',
      '+export const a = 100;',
      '*** Add File: src/b.ts',
      '+export const b = 1;',
      '*** Update File: src/crlf.txt',
      '@@',
      ' one',
      '-not a line of this file',
      '+x',
    );
    const result = await applyPatch(dir, patch);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /src\/crlf\.txt/);
    // The closest real text, numbered, so a model can retry.
    assert.match(result.stderr, /1 \| one/);
    assert.deepEqual(await tree(dir), before);
  });

  it('refuses malformed patches, a file named twice, and files that are not text', async () => {
    await fs.writeFile(path.join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    await fs.writeFile(path.join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const before = await tree(dir);
    const cases: Array<[string, RegExp]> = [
      ['*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch\n', /Begin Patch/],
      [
        patchOf('*** Frobnicate File: src/a.ts'),
        /patch line 2: '\*\*\* Frobnicate File: src\/a\.ts' is not a file header/,
      ],
      [patchOf('*** Update File: src/a.ts', '@@', 'no prefix'), /patch line 4: 'no prefix'/],
      [patchOf('*** Add File: src/a.ts', '+exists'), /file_exists: src\/a\.ts already exists/],
      [patchOf('*** Delete File: src/missing.ts'), /file_not_found: src\/missing\.ts does not exist/],
      [patchOf('*** Delete File: src/a.ts', '*** Delete File: src/./a.ts'), /are the same file; name it once/],
      [patchOf('*** Delete File: blob.bin'), /refused 'blob\.bin': it looks binary/],
      [patchOf('*** Update File: latin1.txt', '@@', '-x'), /refused 'latin1\.txt': it is not UTF-8 text/],
      [patchOf('*** Update File: src', '@@', '-x'), /refused 'src': it is not a regular file/],
    ];
    for (const [patch, message] of cases) {
      const result = await applyPatch(dir, patch);
      assert.equal(result.code, 1, `${patch}\n${result.stdout}`);
      assert.match(result.stderr, message, patch);
      assert.match(result.stderr, /Nothing was changed\.\n$/);
    }
    assert.deepEqual(await tree(dir), before);
  });

  it('exits 2 on bad usage: no patch, an unknown flag, a --cwd that is not a folder', async () => {
    const empty = await applyPatch(dir, '   \n');
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /no patch on standard input/);
    assert.match(empty.stderr, /usage: loopwire apply-patch/);
    const flag = await applyPatch(dir, patchOf('*** Delete File: old.txt'), '--force');
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--force/);
    const cwd = await applyPatch(path.join(dir, 'old.txt'), patchOf('*** Delete File: old.txt'));
    assert.equal(cwd.code, 2);
    assert.match(cwd.stderr, /--cwd/);
    await fs.stat(path.join(dir, 'old.txt'));
  });

  it('explains itself with --help', async () => {
    const result = await runProcess(process.execPath, [bin, 'apply-patch', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^usage: loopwire apply-patch/);
    assert.match(result.stdout, /all or nothing/);
  });
});
