import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type ToolBench, toolBench } from './toolHarness';

// Path containment against look-alikes and normalisation tricks, for every tool that takes a path: the
// three write tools (write_file, edit_file, apply_patch in each of its forms) and read_file. Each path is
// refused with an error that says why (never a mere "not found", which would mean the path was taken), and
// the whole folder around the workspace — the workspace, its .git/ and the folder beside it — is byte for
// byte what it was. editSafety.test.ts covers the plain cases (`..`, absolute paths, links out, `.git/`).

/** Everything under `dir`: each entry's kind and content (a file's bytes, a link's target), links not followed. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string) => {
    for (const name of (await fs.readdir(at)).sort()) {
      const full = path.join(at, name);
      const rel = path.relative(dir, full);
      const stat = await fs.lstat(full);
      if (stat.isSymbolicLink()) out[rel] = `link -> ${await fs.readlink(full)}`;
      else if (stat.isDirectory()) {
        out[rel] = 'dir';
        await walk(full);
      } else out[rel] = `file ${(await fs.readFile(full)).toString('base64')}`;
    }
  };
  await walk(dir);
  return out;
}

/** A workspace with a .git/, links out and into .git/ in the middle of paths, and a folder beside it. */
async function bench(): Promise<ToolBench & { parent: string }> {
  const made = await toolBench({ 'src/a.txt': 'a\n', '.git/config': '[core]\n', '.git/hooks/.keep': '' });
  await fs.writeFile(path.join(made.outside, 'secret.txt'), 'secret\n');
  await fs.mkdir(path.join(made.outside, 'inner'));
  await fs.writeFile(path.join(made.outside, 'inner', 'target.txt'), 'target\n');
  await fs.mkdir(path.join(made.root, 'sub'));
  await fs.symlink(made.outside, path.join(made.root, 'sub', 'out'));
  await fs.symlink(path.join(made.root, '.git'), path.join(made.root, 'sub', 'git'));
  return { ...made, parent: path.dirname(made.root) };
}

/** The calls that take `target` as their path: each write tool in each of its forms, and (optionally) read_file. */
function callsFor(target: string, withRead: boolean, old = 'secret'): [string, Record<string, unknown>][] {
  const patch = (body: string) => ({ input: `*** Begin Patch\n${body}\n*** End Patch` });
  return [
    ['write_file', { path: target, content: 'pwned\n' }],
    ['edit_file', { path: target, edits: [{ old_string: old, new_string: 'pwned' }] }],
    // New names beside the target: adding or moving onto one that exists is refused for that alone.
    ['apply_patch', patch(`*** Add File: ${target}.added\n+pwned`)],
    ['apply_patch', patch(`*** Update File: ${target}\n@@\n-${old}\n+pwned`)],
    ['apply_patch', patch(`*** Delete File: ${target}`)],
    ['apply_patch', patch(`*** Update File: src/a.txt\n*** Move to: ${target}.moved\n@@\n-a\n+pwned`)],
    ...(withRead ? ([['read_file', { path: target }]] as [string, Record<string, unknown>][]) : []),
  ];
}

/** Runs every call on `target` and checks each is refused for `reason`, with nothing changed anywhere. */
async function assertRefused(
  made: ToolBench & { parent: string },
  target: string,
  reason: RegExp,
  withRead: boolean,
  old?: string,
) {
  const before = await tree(made.parent);
  for (const [tool, args] of callsFor(target, withRead, old)) {
    // A read first, so that a write refused for not having read the file cannot pass for a containment refusal.
    if (tool !== 'read_file') await made.run('read_file', { path: target });
    const result = await made.run(tool, args);
    const label = `${tool} ${JSON.stringify(args)}`;
    assert.equal(result.ok, false, `${label} was accepted: ${result.output}`);
    assert.match(result.output, reason, label);
    assert.doesNotMatch(result.output, /not found|does not exist|no such file/i, label);
    assert.deepEqual(await tree(made.parent), before, `${label} changed the disk`);
  }
}

const outsideTarget = 'outside/secret.txt';

/** Paths that lead out of the workspace on some file system or through some decoding, and what they are. */
const ESCAPES: [string, string][] = [
  [`\u2024\u2024/${outsideTarget}`, 'one-dot leaders for ..'],
  [`src/\u2024\u2024/\u2024\u2024/${outsideTarget}`, 'one-dot leaders, twice, from a subfolder'],
  [`\u2025/${outsideTarget}`, 'a two-dot leader (NFKC: ..)'],
  [`\uFF0E\uFF0E/${outsideTarget}`, 'fullwidth full stops'],
  [`.\uFF0E/${outsideTarget}`, 'a dot and a fullwidth full stop'],
  [`\uFE52\uFE52/${outsideTarget}`, 'small full stops'],
  [`..\uFF0Foutside\uFF0Fsecret.txt`, 'fullwidth solidus for /'],
  [`\uFF0E\uFF0E\uFF0Foutside\uFF0Fsecret.txt`, 'all fullwidth'],
  [`..\u2215outside\u2215secret.txt`, 'division slash for /'],
  [`..\uFF3Coutside\uFF3Csecret.txt`, 'fullwidth reverse solidus for \\'],
  [`..\\outside\\secret.txt`, 'backslashes'],
  [`src\\..\\..\\outside\\secret.txt`, 'backslashes from a subfolder'],
  [`%2e%2e/${outsideTarget}`, '%-encoded dots'],
  [`%2E%2E%2Foutside%2Fsecret.txt`, '%-encoded dots and slashes'],
  [`..%2foutside%2fsecret.txt`, '%-encoded slashes'],
  [`.%2e/${outsideTarget}`, 'a dot and a %-encoded dot'],
  [`%252e%252e/${outsideTarget}`, 'double %-encoding'],
  [`.. /${outsideTarget}`, 'a trailing space (Windows drops it)'],
  [`... /${outsideTarget}`, 'three dots and a space'],
  [`.../${outsideTarget}`, 'three dots (Windows drops trailing dots)'],
  [`..\u200C/${outsideTarget}`, 'a zero-width non-joiner (HFS+ ignores it)'],
  [`.\u200B./${outsideTarget}`, 'a zero-width space between the dots'],
  [`\uFEFF../${outsideTarget}`, 'a byte-order mark before the dots'],
  ['sub/out/secret.txt', 'a symlinked folder in the middle of the path'],
  ['sub/out/inner/target.txt', 'a symlinked folder in the middle of a deeper path'],
  ['src/a.txt\u0000/x', 'a NUL byte'],
];

const ESCAPE_REASON =
  /leaves the workspace|outside the workspace|reads as '\.\.'|stands for a path separator|symbolic link|not a valid path/;

describe('path containment: look-alikes and normalisation tricks are refused and nothing is written', () => {
  for (const [given, what] of ESCAPES)
    it(`${what}: ${JSON.stringify(given)}`, async () => {
      const made = await bench();
      // Relative to the workspace, `outside/` is `../outside/`: every path above aims at it.
      await assertRefused(made, given, ESCAPE_REASON, true);
    });

  it('a fullwidth solidus for an absolute path to a file outside', async () => {
    const made = await bench();
    const absolute = path.join(made.outside, 'secret.txt');
    await assertRefused(made, `\uFF0F${absolute.slice(1)}`, ESCAPE_REASON, true);
  });

  const GIT_LOOKALIKES: [string, string][] = [
    ['.GIT/config', 'upper case (case-insensitive file systems)'],
    ['.Git/hooks/pre-commit', 'mixed case'],
    ['.git./config', 'a trailing dot (Windows)'],
    ['.git /config', 'a trailing space (Windows)'],
    ['.git::$INDEX_ALLOCATION/config', 'an NTFS stream name'],
    ['git~1/config', 'the 8.3 short name'],
    ['GIT~1/hooks/pre-commit', 'the 8.3 short name, upper case'],
    ['.g\u200Cit/config', 'a zero-width non-joiner (HFS+ ignores it)'],
    ['\uFF0Egit/config', 'a fullwidth full stop'],
    ['.\uFF47\uFF49\uFF54/config', 'fullwidth letters'],
    ['%2egit/config', 'a %-encoded dot'],
    ['src/.GIT/config', 'upper case, below the root (a submodule keeps one)'],
    ['sub/git/config', 'a symlinked folder into .git/ in the middle of the path'],
  ];
  for (const [given, what] of GIT_LOOKALIKES)
    it(`.git/ ${what}: ${JSON.stringify(given)} is not written`, async () => {
      const made = await bench();
      // The look-alike exists here (on Linux it is another folder; where names fold, it is .git itself), so
      // each edit would apply if the write were allowed. Reading .git/ is allowed; only writes are refused.
      if (!given.startsWith('sub/')) await made.write(given, '[core]\n');
      await assertRefused(made, given, /\.git\//, false, '[core]');
    });

  it('NFC and NFD: a link named in one form is not reached through the other, and nothing leaves the workspace', async () => {
    // On this file system (Linux: names are bytes) the other form is another name, a new entry inside the
    // workspace; where the file system equates them (APFS, HFS+), the same path resolves to the link, and
    // the adapter's real-path check sees where it leads and refuses it. Either way nothing outside is reached.
    const made = await bench();
    const links = { nfc: 'caf\u00E9', nfd: 'nai\u0308ve' };
    const others = { nfc: 'cafe\u0301', nfd: 'na\u00EFve' };
    assert.equal(links.nfc.normalize('NFD'), others.nfc);
    assert.equal(links.nfd.normalize('NFC'), others.nfd);
    for (const link of Object.values(links)) {
      await fs.symlink(made.outside, path.join(made.root, link));
      const result = await made.run('read_file', { path: `${link}/secret.txt` });
      assert.match(result.output, /leads out of the workspace through a symbolic link/);
    }
    const outsideBefore = await tree(made.outside);
    for (const other of Object.values(others)) {
      const given = `${other}/secret.txt`;
      for (const [tool, args] of callsFor(given, true)) {
        if (tool !== 'read_file') await made.run('read_file', { path: given });
        await made.run(tool, args);
      }
      assert.deepEqual(await tree(made.outside), outsideBefore, `${JSON.stringify(given)} reached the folder outside`);
    }
  });

  it('plain names that merely contain these characters still work', async () => {
    const made = await bench();
    for (const name of [
      '100%.txt',
      'a%20b.txt',
      'r\u00E9sum\u00E9.txt',
      'notes.v2..txt',
      '\u2025note.txt',
      '.gitignore',
      '.github/x.yml',
    ]) {
      const written = await made.run('write_file', { path: name, content: 'ok\n' });
      assert.equal(written.ok, true, `${name}: ${written.output}`);
      assert.equal(await made.read(name), 'ok\n');
      assert.equal((await made.run('read_file', { path: name })).ok, true, name);
    }
  });
});
