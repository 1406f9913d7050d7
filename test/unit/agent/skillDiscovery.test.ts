import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findNestedSkills, findSkills } from '../../../src/agent/skills/skillDiscovery';
import { parseSkillFile } from '../../../src/agent/skills/skillFile';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// Where skills are found and what is said of a SKILL.md that cannot be used: real folders in a temporary
// folder, a workspace and a fake home folder side by side.

/** Writes `dir/SKILL.md` with a front matter naming `name` (the folder's own name by default). */
async function skill(dir: string, description = 'Does a thing.', name = path.basename(dir)): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# Body\n`);
}

describe('agent: skills are found and checked', () => {
  let base: string;
  let ws: string;
  let home: string;
  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-skills-')));
    ws = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fs.mkdir(ws);
    await fs.mkdir(home);
  });
  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  it('finds them in the three workspace folders and the three of the user, the workspace’s first, each by name', async () => {
    await skill(path.join(ws, '.agents/skills/zeta'));
    await skill(path.join(ws, '.github/skills/beta'));
    await skill(path.join(ws, '.claude/skills/alpha'));
    await skill(path.join(home, '.agents/skills/user-c'));
    await skill(path.join(home, '.copilot/skills/user-b'));
    await skill(path.join(home, '.claude/skills/user-a'));
    const found = await findSkills([ws], home);
    assert.deepEqual(found.problems, []);
    assert.deepEqual(
      found.skills.map((s) => [s.name, s.scope, s.label]),
      [
        ['alpha', 'workspace', '.claude/skills/alpha/SKILL.md'],
        ['beta', 'workspace', '.github/skills/beta/SKILL.md'],
        ['zeta', 'workspace', '.agents/skills/zeta/SKILL.md'],
        ['user-a', 'user', path.join(home, '.claude/skills/user-a/SKILL.md')],
        ['user-b', 'user', path.join(home, '.copilot/skills/user-b/SKILL.md')],
        ['user-c', 'user', path.join(home, '.agents/skills/user-c/SKILL.md')],
      ],
    );
    assert.equal(found.skills[3]?.folder, path.join(home, '.claude/skills/user-a'));
  });

  it('counts a SKILL.md reached twice once, and lists two skills of one name from two places both', async () => {
    await skill(path.join(ws, '.agents/skills/lint'));
    await fs.mkdir(path.join(ws, '.claude'));
    await fs.symlink(path.join(ws, '.agents/skills'), path.join(ws, '.claude/skills'), 'dir');
    await skill(path.join(home, '.agents/skills/lint'), 'The user’s own lint.');
    const found = await findSkills([ws], home);
    assert.deepEqual(
      found.skills.map((s) => [s.name, s.scope]),
      [
        ['lint', 'workspace'],
        ['lint', 'user'],
      ],
    );
  });

  it('walks down to six levels, skips dot folders, and does not look inside a skill for more', async () => {
    await skill(path.join(ws, '.agents/skills/group/deep'));
    await skill(path.join(ws, '.agents/skills/a/b/c/d/e/six'));
    await skill(path.join(ws, '.agents/skills/a/b/c/d/e/f/seven'));
    await skill(path.join(ws, '.agents/skills/.hidden'));
    await skill(path.join(ws, '.agents/skills/outer'));
    await skill(path.join(ws, '.agents/skills/outer/assets/inner'));
    const found = await findSkills([ws], home);
    assert.deepEqual(found.skills.map((s) => s.name).sort(), ['deep', 'outer', 'six']);
  });

  it('says why a SKILL.md is not used, naming the file, and goes on with the others', async () => {
    const write = async (rel: string, text: string) => {
      await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
      await fs.writeFile(path.join(ws, rel), text);
    };
    await write('.agents/skills/bare/SKILL.md', '# No front matter\n');
    await write('.agents/skills/open/SKILL.md', '---\nname: open\n');
    await write('.agents/skills/yaml/SKILL.md', '---\nname: [yaml\ndescription: x\n---\n');
    await write('.agents/skills/noname/SKILL.md', '---\ndescription: x\n---\n');
    await write('.agents/skills/Upper/SKILL.md', '---\nname: Upper\ndescription: x\n---\n');
    await write('.agents/skills/other/SKILL.md', '---\nname: not-other\ndescription: x\n---\n');
    await write('.agents/skills/empty/SKILL.md', '---\nname: empty\ndescription: ""\n---\n');
    await skill(path.join(ws, '.github/skills/good'));
    const found = await findSkills([ws], home);
    assert.deepEqual(
      found.skills.map((s) => s.name),
      ['good'],
    );
    assert.deepEqual(found.problems, [
      {
        file: '.agents/skills/Upper/SKILL.md',
        problem: "the name 'Upper' may hold only lowercase letters, digits and hyphens",
      },
      {
        file: '.agents/skills/bare/SKILL.md',
        problem: 'no YAML front matter (a first line `---`, the fields, then `---`)',
      },
      { file: '.agents/skills/empty/SKILL.md', problem: 'the field `description` is empty' },
      { file: '.agents/skills/noname/SKILL.md', problem: 'the field `name` is missing or not text' },
      {
        file: '.agents/skills/open/SKILL.md',
        problem: 'no YAML front matter (a first line `---`, the fields, then `---`)',
      },
      { file: '.agents/skills/other/SKILL.md', problem: "the name 'not-other' is not its folder's name 'other'" },
      {
        file: '.agents/skills/yaml/SKILL.md',
        problem: found.problems.find((p) => p.file.includes('/yaml/'))?.problem ?? '',
      },
    ]);
    assert.match(found.problems[6]?.problem ?? '', /^the front matter is not valid YAML: .+/);
    assert.doesNotMatch(found.problems[6]?.problem ?? '', /\n/, 'one line');
  });

  it('holds names and descriptions to the format’s rules', () => {
    const check = (name: string, description = 'x', folder = name) =>
      ((r) => ('problem' in r ? r.problem : 'ok'))(
        parseSkillFile(
          `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\n`,
          folder,
        ),
      );
    assert.equal(check('pdf-tools2'), 'ok');
    assert.equal(check('a'.repeat(64)), 'ok');
    assert.equal(check('a'.repeat(65)), `the name '${'a'.repeat(65)}' is longer than 64 characters`);
    assert.equal(check('-pdf'), "the name '-pdf' may not start or end with a hyphen, nor have two in a row");
    assert.equal(check('pdf-'), "the name 'pdf-' may not start or end with a hyphen, nor have two in a row");
    assert.equal(check('pdf--x'), "the name 'pdf--x' may not start or end with a hyphen, nor have two in a row");
    assert.equal(check('pdf_x'), "the name 'pdf_x' may hold only lowercase letters, digits and hyphens");
    assert.equal(check('pdf', 'é'.repeat(1024)), 'ok');
    assert.equal(check('pdf', 'é'.repeat(1025)), 'the description is longer than 1024 characters');
    assert.equal(
      ((r) => ('problem' in r ? r.problem : 'ok'))(parseSkillFile('---\ndescription: x\nname: 3\n---\n', 'x')),
      'the field `name` is missing or not text',
    );
    assert.equal(
      ((r) => ('problem' in r ? r.problem : 'ok'))(parseSkillFile('---\n- a\n- b\n---\n', 'x')),
      'the front matter is not a mapping of fields',
    );
    const folded = parseSkillFile(
      '---\nname: pdf\ndescription: >\n  Fills forms\n  and more.\nlicense: MIT\n---\n',
      'pdf',
    );
    assert.deepEqual(
      folded,
      { name: 'pdf', description: 'Fills forms and more.' },
      'on one line; other fields kept unchecked',
    );
  });

  it('refuses a workspace skill that a link leads out of the workspace, and a user skill folder that holds the home folder', async () => {
    const outside = path.join(base, 'elsewhere');
    await skill(path.join(outside, 'away'));
    await fs.mkdir(path.join(ws, '.agents/skills'), { recursive: true });
    await fs.symlink(path.join(outside, 'away'), path.join(ws, '.agents/skills/away'), 'dir');
    await fs.writeFile(path.join(home, 'SKILL.md'), '---\nname: everything\ndescription: x\n---\n');
    await fs.mkdir(path.join(home, '.agents/skills'), { recursive: true });
    await fs.symlink(home, path.join(home, '.agents/skills/everything'), 'dir');
    const found = await findSkills([ws], home);
    assert.deepEqual(found.skills, []);
    assert.deepEqual(found.problems, [
      {
        file: '.agents/skills/away/SKILL.md',
        problem: 'it leads out of the workspace through a symbolic link: not used',
      },
      {
        file: path.join(home, '.agents/skills/everything/SKILL.md'),
        problem: 'its folder is the home folder or holds it: not used',
      },
    ]);
  });

  it('does not read a SKILL.md over 256 KiB', async () => {
    await fs.mkdir(path.join(ws, '.agents/skills/big'), { recursive: true });
    const text = `---\nname: big\ndescription: x\n---\n${'x'.repeat(256 * 1024)}`;
    await fs.writeFile(path.join(ws, '.agents/skills/big/SKILL.md'), text);
    const found = await findSkills([ws], home);
    assert.deepEqual(found.problems, [
      { file: '.agents/skills/big/SKILL.md', problem: 'it is larger than 256 KiB: not read' },
    ]);
  });

  it('finds a folder’s own skills below the workspace folder, named by workspace paths', async () => {
    await skill(path.join(ws, 'packages/api/.claude/skills/api-errors'));
    await skill(path.join(ws, '.agents/skills/top'));
    const workspace = await NodeWorkspace.open(ws);
    const found = await findNestedSkills(workspace.locate('packages/api'));
    assert.deepEqual(
      found.skills.map((s) => [s.name, s.label]),
      [['api-errors', 'packages/api/.claude/skills/api-errors/SKILL.md']],
    );
    assert.deepEqual(
      (await findSkills([ws], home)).skills.map((s) => s.name),
      ['top'],
      'the task’s list has the workspace folder’s own, not those below it',
    );
  });

  it('names a workspace skill with its folder’s name in a workspace of several folders, and finds none without folders', async () => {
    const second = path.join(base, 'web');
    await skill(path.join(second, '.agents/skills/css'));
    const found = await findSkills([ws, second], undefined);
    assert.deepEqual(
      found.skills.map((s) => s.label),
      ['web/.agents/skills/css/SKILL.md'],
    );
    const named = await findSkills([ws, { path: second, name: 'frontend' }], undefined);
    assert.deepEqual(
      named.skills.map((s) => s.label),
      ['frontend/.agents/skills/css/SKILL.md'],
      'by the name the workspace gives the folder (VS Code’s, which a .code-workspace may set)',
    );
    assert.deepEqual(await findSkills([], undefined), { skills: [], problems: [], workspace: false });
  });

  // A repository's SKILL.md that is a FIFO held the read, and the task's start, for good.
  it('says a SKILL.md that is a FIFO is not a regular file, and goes on', async () => {
    await fs.mkdir(path.join(ws, '.agents/skills/pipe'), { recursive: true });
    execFileSync('mkfifo', [path.join(ws, '.agents/skills/pipe/SKILL.md')]);
    await skill(path.join(ws, '.agents/skills/plain'));
    const found = await findSkills([ws], home);
    assert.deepEqual(
      found.skills.map((s) => s.name),
      ['plain'],
    );
    assert.deepEqual(found.problems, [
      { file: '.agents/skills/pipe/SKILL.md', problem: 'it is not a regular file: not read' },
    ]);
  });
});
