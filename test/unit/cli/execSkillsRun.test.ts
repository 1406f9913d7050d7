import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { useTempWorkspace } from '../support/tempWorkspace';

// The built `loopwire exec` running a task against the real server, its home folder a fake one: a broken
// SKILL.md is said once on stderr over the whole run (the skills are read before the agent is made and again
// at the task's start), and the model gets the usable skills.

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' ? first.text : '';
};

describe('cli: loopwire exec runs a task with skills', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-skills' });
  const run = useExecAgainstServer(temp);
  const savedHome = process.env.HOME;
  afterEach(() => {
    process.env.HOME = savedHome;
  });

  it('says a broken SKILL.md once over the run, and lists the user’s and the workspace’s skills', async () => {
    await temp.write('ws/.agents/skills/fix-tests/SKILL.md', '---\nname: fix-tests\ndescription: Fixes tests.\n---\n');
    await temp.write('ws/.claude/skills/broken/SKILL.md', '---\nname: broken\n');
    await temp.write('home/.copilot/skills/notes/SKILL.md', '---\nname: notes\ndescription: Takes notes.\n---\n');
    await fs.mkdir(temp.path('sessions'), { recursive: true });
    // The bin inherits the environment: its home folder is the fake one.
    process.env.HOME = temp.path('home');
    const result = await run.exec(['--workspace', temp.path('ws'), '--approve', 'read-only', 'Say hello.']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const line =
      '(skill not used: .claude/skills/broken/SKILL.md: no YAML front matter (a first line `---`, the fields, then `---`))\n';
    assert.equal(result.stderr.split(line).length - 1, 1, result.stderr);
    const [, first] = await run.requests();
    const skills = first?.input.map((item) => textOf(item.content)).find((text) => text.startsWith('# Skills\n'));
    assert.equal(
      skills?.split('<SKILLS>\n')[1],
      '- fix-tests: Fixes tests. (file: .agents/skills/fix-tests/SKILL.md)\n' +
        `- notes: Takes notes. (file: ${temp.path('home/.copilot/skills/notes/SKILL.md')})\n</SKILLS>`,
    );
  });
});
