import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findSkills } from '../../../src/agent/skills/skillDiscovery';
import { ReadLedger, type ToolContext, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// read_file may read inside a skill folder of the user's, found by discovery, by its absolute path — and
// nowhere else outside the workspace: not the rest of the home folder, not through `..`, not through a link
// that leads out of the skill folder. Real files in a temporary folder, a fake home beside the workspace.

describe('tools: read_file inside a user’s skill folder', () => {
  let base: string;
  let home: string;
  let context: ToolContext;
  let folder: string;
  const read = async (file: string) =>
    runToolCall({ kind: 'function', name: 'read_file', arguments: JSON.stringify({ path: file }) }, context);

  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-skill-read-')));
    home = path.join(base, 'home');
    folder = path.join(home, '.claude/skills/deploy');
    await fs.mkdir(path.join(folder, 'references'), { recursive: true });
    await fs.writeFile(
      path.join(folder, 'SKILL.md'),
      '---\nname: deploy\ndescription: Deploys.\n---\nSee references/steps.md.\n',
    );
    await fs.writeFile(path.join(folder, 'references/steps.md'), 'one\ntwo\n');
    await fs.mkdir(path.join(home, '.ssh'));
    await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
    await fs.symlink(path.join(home, '.ssh/id_ed25519'), path.join(folder, 'key'));
    await fs.symlink(path.join(home, '.ssh'), path.join(folder, 'dotssh'), 'dir');
    await fs.mkdir(path.join(base, 'ws'));
    await fs.writeFile(path.join(base, 'ws/a.txt'), 'workspace\n');
    const found = await findSkills([path.join(base, 'ws')], home);
    const workspace = await NodeWorkspace.open(path.join(base, 'ws'));
    context = {
      workspace,
      reads: new ReadLedger(),
      skillFolders: found.skills.filter((s) => s.scope === 'user').map((s) => s.folder),
    };
  });
  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  it('reads SKILL.md and a reference by their absolute paths, read-only', async () => {
    const skill = await read(path.join(folder, 'SKILL.md'));
    assert.ok(skill.ok, skill.output);
    assert.match(skill.output, /^---\nname: deploy\n[\s\S]*\(.*SKILL\.md: lines 1–5 of 5\)$/);
    const steps = await read(path.join(folder, 'references/../references/steps.md'));
    assert.equal(steps.output, `one\ntwo\n(${path.join(folder, 'references/../references/steps.md')}: lines 1–2 of 2)`);
    const edit = await runToolCall(
      {
        kind: 'function',
        name: 'write_file',
        arguments: JSON.stringify({ path: path.join(folder, 'SKILL.md'), content: 'x' }),
      },
      context,
    );
    assert.equal(edit.ok, false, 'no edit tool writes there');
    assert.match(await fs.readFile(path.join(folder, 'SKILL.md'), 'utf8'), /^---\nname: deploy/);
  });

  it('refuses the rest of the home folder, `..` out of the skill folder, and links that lead out of it', async () => {
    for (const file of [
      path.join(home, '.ssh/id_ed25519'),
      path.join(folder, '../../../.ssh/id_ed25519'),
      path.join(folder, 'key'),
      path.join(folder, 'dotssh/id_ed25519'),
      path.join(home, '.claude/skills/deploy-evil/SKILL.md'),
    ]) {
      const result = await read(file);
      assert.equal(result.ok, false, file);
      assert.doesNotMatch(result.output, /PRIVATE KEY/, file);
      assert.match(result.output, /outside the workspace/, file);
    }
  });

  it('refuses a file hard-linked into the skill folder from elsewhere', async () => {
    await fs.link(path.join(home, '.ssh/id_ed25519'), path.join(folder, 'hard'));
    const result = await read(path.join(folder, 'hard'));
    assert.equal(result.ok, false);
    assert.match(result.output, /has other hard links/);
    assert.doesNotMatch(result.output, /PRIVATE KEY/);
  });

  it('reads nothing outside the workspace where no skill folder was found, and the workspace as before', async () => {
    context = { ...context, skillFolders: [] };
    assert.equal((await read(path.join(folder, 'SKILL.md'))).ok, false);
    assert.equal((await read('a.txt')).output, 'workspace\n(a.txt: lines 1–1 of 1)');
  });

  it('says so for a folder, without reading it', async () => {
    const result = await read(path.join(folder, 'references'));
    assert.equal(result.ok, false);
    assert.match(result.output, /is not a file/);
  });
});
