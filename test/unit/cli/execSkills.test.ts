import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execCommand } from '../../../src/cli/exec/execMain';
import type { ExecHost } from '../../../src/cli/exec/execSandbox';

// `loopwire exec --dump-request` on a workspace holding skills, with a fake home folder holding the user's:
// each SKILL.md that cannot be used is said once on stderr, with its file; the first request lists the usable
// ones in one message after the project instructions, a skill the prompt names after the prompt, and the
// standing instructions say how skills work (the whole request is pinned in firstRequest.test.ts).

const HOST: ExecHost = {
  stdinTerminal: false,
  stderrTerminal: false,
  support: () => ({ available: false, reason: 'No sandbox in this test.' }),
};

interface Body {
  input: { role: string; content: string | { text: string }[] }[];
}
const textOf = (item: Body['input'][number] | undefined) =>
  typeof item?.content === 'string' ? item.content : (item?.content[0]?.text ?? '');

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('cli: loopwire exec reads skills', function () {
  this.timeout(20_000);
  let base: string;
  let workspace: string;
  let home: string;
  const savedHome = process.env.HOME;
  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-exec-skills-')));
    workspace = path.join(base, 'ws');
    home = path.join(base, 'home');
    write(path.join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    write(path.join(workspace, 'AGENTS.md'), 'Run the tests with npm test.\n');
    write(path.join(workspace, 'package.json'), '{ "scripts": { "test": "node --test" } }\n');
    write(
      path.join(workspace, '.agents/skills/fix-tests/SKILL.md'),
      '---\nname: fix-tests\ndescription: Finds and fixes a failing test, smallest change first.\n---\n\n1. Run the one test.\n',
    );
    write(path.join(workspace, '.github/skills/broken/SKILL.md'), '# No front matter\n');
    fs.mkdirSync(home);
    process.env.HOME = home;
  });
  after(() => {
    process.env.HOME = savedHome;
    fs.rmSync(base, { recursive: true, force: true });
  });

  async function dump(prompt = 'Fix the failing test.'): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
      readStdin: () => Promise.resolve(''),
    };
    const args = ['--dump-request', '--workspace', workspace, '--model', 'gpt-5.2-codex', '--approve', 'ask', prompt];
    const code = await execCommand(args, io, { host: HOST });
    return { code, stdout, stderr };
  }

  it('says each SKILL.md it cannot use once on stderr, with the file, and builds the request anyway', async () => {
    write(path.join(home, '.claude/skills/Mine/SKILL.md'), '---\nname: Mine\ndescription: x\n---\n');
    try {
      const result = await dump();
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stderr,
        '(skill not used: .github/skills/broken/SKILL.md: no YAML front matter (a first line `---`, the fields, then `---`))\n' +
          `(skill not used: ${path.join(home, '.claude/skills/Mine/SKILL.md')}: the name 'Mine' may hold only lowercase letters, digits and hyphens)\n`,
        'once each, though the skills were read twice (before the agent was made, and at the task’s start)',
      );
      assert.equal(result.stdout.split('\n').length, 2, 'stdout holds the body alone');
    } finally {
      fs.rmSync(path.join(home, '.claude'), { recursive: true, force: true });
    }
  });

  it('lists the skills after the project instructions, and a named skill after the prompt', async () => {
    write(
      path.join(home, '.agents/skills/my-notes/SKILL.md'),
      '---\nname: my-notes\ndescription: Keeps my notes.\n---\nWrite them down.\n',
    );
    try {
      const result = await dump('Fix the failing test with $fix-tests.');
      assert.equal(result.code, 0, result.stderr);
      const body = JSON.parse(result.stdout) as Body;
      const texts = body.input.map(textOf);
      assert.match(texts[0] ?? '', /\n# Skills\n- A user message headed `# Skills` lists skills/);
      assert.match(texts[1] ?? '', /^# AGENTS\.md instructions for /);
      assert.equal(
        texts[2]?.split('<SKILLS>\n')[1],
        '- fix-tests: Finds and fixes a failing test, smallest change first. (file: .agents/skills/fix-tests/SKILL.md)\n' +
          `- my-notes: Keeps my notes. (file: ${path.join(home, '.agents/skills/my-notes/SKILL.md')})\n</SKILLS>`,
      );
      assert.match(texts[3] ?? '', /^<environment_context>/);
      assert.equal(texts[4], 'Fix the failing test with $fix-tests.');
      assert.match(
        texts[5] ?? '',
        /^<skill name="fix-tests" path="\.agents\/skills\/fix-tests\/SKILL\.md">\n[\s\S]*1\. Run the one test\.\n<\/skill>$/,
      );
      assert.equal(texts.length, 6);
    } finally {
      fs.rmSync(path.join(home, '.agents'), { recursive: true, force: true });
    }
  });
});
