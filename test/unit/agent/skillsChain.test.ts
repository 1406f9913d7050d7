import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Agent } from '../../../src/agent/agentLoop';
import { approveAll } from '../../../src/agent/approvals/approvals';
import { Transcript } from '../../../src/agent/conversation/transcript';
import { type FoundSkills, type Skill, findSkills } from '../../../src/agent/skills/skillDiscovery';
import { mentionItem, mentionedSkills } from '../../../src/agent/skills/skillMentions';
import {
  SKILLS_LIST_MAX_CHARS,
  isNestedSkillsItem,
  isSkillsItem,
  skillsText,
  skillsUpdate,
} from '../../../src/agent/skills/skillsItem';
import { ModelTransport } from '../../../src/agent/transport/modelTransport';
import { type AnyInputItem, isPrompt } from '../../../src/protocol';
import type { ScenarioFile } from '../../../src/server';
import { BUILTIN_TOOLS, ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { requestsOf, useAgentBench } from './agentHarness';

// The skills as the model gets them: one message listing them after the project instructions, on the chain;
// a skill added mid-chat in a later message, the earlier ones untouched; a skill the prompt names as `$name`
// carried after the prompt; a folder's own skills when the agent first works there. Against the real server.

const skill = (name: string, description: string, label = `.agents/skills/${name}/SKILL.md`): Skill => ({
  name,
  description,
  file: `/abs/${label}`,
  folder: `/abs/${path.posix.dirname(label)}`,
  label,
  scope: 'workspace',
});
const text = (item: AnyInputItem | undefined) => JSON.stringify(item ?? null);
const first = (item: AnyInputItem | undefined): string => {
  const content = (item as { content?: unknown } | undefined)?.content;
  const part = Array.isArray(content) ? (content[0] as { text?: string } | undefined) : undefined;
  return typeof content === 'string' ? content : (part?.text ?? '');
};

async function writeSkill(dir: string, name: string, description: string, body = '# Steps\n1. Do it.\n') {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`);
}

describe('agent: the skills message and its chain', () => {
  it('lists each skill by name, description and SKILL.md path, under one heading', () => {
    assert.equal(
      skillsText([skill('lint', 'Lints the code.'), skill('release', 'Cuts a release.')]),
      '# Skills\n\n' +
        'Each skill is a folder of instructions (SKILL.md) for one kind of task, with any scripts, references and assets it needs. When a task matches a skill’s description, or the user names it as `$name`, read its SKILL.md and follow it.\n\n' +
        '<SKILLS>\n' +
        '- lint: Lints the code. (file: .agents/skills/lint/SKILL.md)\n' +
        '- release: Cuts a release. (file: .agents/skills/release/SKILL.md)\n' +
        '</SKILLS>',
    );
    assert.equal(skillsText([]), '');
  });

  // A repository of 2,000 skills of 1,024-character descriptions made every request megabytes long.
  it('caps the list, and says how many skills it left out', () => {
    const many = Array.from({ length: 2000 }, (_, i) => skill(`s${i}`, 'x'.repeat(1024)));
    const listed = skillsText(many);
    assert.ok(listed.length < SKILLS_LIST_MAX_CHARS + 1024, `${listed.length} characters`);
    const shown = listed.split('\n').filter((line) => line.startsWith('- s')).length;
    assert.ok(shown > 0);
    assert.match(
      listed,
      new RegExp(`\\(${2000 - shown} more skills not listed: the list is capped\\.\\)\\n</SKILLS>$`),
    );
  });

  it('adds the list once, a replacement when it changed, a note when all are gone, and a context item each time', () => {
    const items: AnyInputItem[] = [];
    const step = (skills: Skill[]) => {
      const update = skillsUpdate({ skills, problems: [], workspace: true }, items);
      if (update) items.push(update);
      return update;
    };
    assert.equal(step([]), undefined, 'none found, none listed');
    const listed = step([skill('lint', 'Lints.')]);
    assert.ok(listed && isSkillsItem(listed) && !isPrompt(listed), 'a context item, never taken for a prompt');
    assert.equal(step([skill('lint', 'Lints.')]), undefined, 'unchanged: nothing');
    const changed = step([skill('lint', 'Lints.'), skill('fmt', 'Formats.')]);
    assert.match(
      first(changed),
      /^# Skills\n\n.*\n\nThe skills changed: this list replaces the one given earlier in this conversation\.\n\n<SKILLS>\n- lint: Lints\./s,
    );
    assert.equal(
      step([skill('lint', 'Lints.'), skill('fmt', 'Formats.')]),
      undefined,
      'unchanged since the replacement',
    );
    assert.equal(
      first(step([])),
      '# Skills\n\nThe skills listed earlier in this conversation are gone: do not use them.',
    );
    assert.equal(step([]), undefined);
    assert.equal(items.length, 3);
  });

  it('finds the skills a prompt names as $name, once each, and no name two skills share', () => {
    const skills = [skill('lint', 'a'), skill('fmt', 'b'), skill('twice', 'c'), skill('twice', 'd', 'x/SKILL.md')];
    const names = (prompt: string) => mentionedSkills(prompt, skills).map((s) => s.name);
    assert.deepEqual(names('use $fmt then $lint, and $fmt again'), ['fmt', 'lint']);
    assert.deepEqual(names('$lint-x, a$lint, $$lint, $LINT, $HOME'), []);
    assert.deepEqual(names('($lint)'), ['lint']);
    assert.deepEqual(names('use $twice'), [], 'ambiguous: neither');
  });

  it('carries a named skill’s SKILL.md in a message that tells the model to follow it', async () => {
    const dir = await fs.mkdtemp('/tmp/h-skill-mention-');
    try {
      await writeSkill(path.join(dir, 'lint'), 'lint', 'Lints.');
      const item = await mentionItem({ ...skill('lint', 'Lints.'), file: path.join(dir, 'lint', 'SKILL.md') });
      assert.equal(
        first(item),
        '<skill name="lint" path=".agents/skills/lint/SKILL.md">\n' +
          'The user named this skill for the task: follow its instructions below, and read the files they point to in .agents/skills/lint/ as you need them.\n\n' +
          '---\nname: lint\ndescription: Lints.\n---\n\n# Steps\n1. Do it.\n</skill>',
      );
      assert.ok(item && !isPrompt(item), 'a context item');
      assert.equal(await mentionItem({ ...skill('gone', 'x'), file: path.join(dir, 'gone', 'SKILL.md') }), undefined);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  describe('against the real server', function () {
    this.timeout(20_000);
    const scenario: ScenarioFile = {
      scenarios: [
        { name: 'hello', match: 'hello', steps: [{ output: [{ type: 'message', text: 'Hi.' }] }] },
        { name: 'again', match: 'again', steps: [{ output: [{ type: 'message', text: 'Again.' }] }] },
        {
          name: 'api',
          match: 'look at the api',
          steps: [
            { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'packages/api/a.ts' } }] },
            { output: [{ type: 'message', text: 'Looked.' }] },
          ],
        },
      ],
    };
    const bench = useAgentBench(scenario, { 'packages/api/a.ts': 'export const a = 1;\n' }, { logBodies: true });

    async function agentOn(
      transcript: Transcript,
      skills: () => Promise<FoundSkills> = () => findSkills([bench.dir], path.join(bench.dir, 'no-home')),
    ): Promise<Agent> {
      const workspace = await NodeWorkspace.open(bench.dir);
      const transport = new ModelTransport({
        endpoint: bench.server.url,
        apiKey: 'test-token',
        transport: 'ws',
        emit: () => undefined,
      });
      bench.beforeRemove(() => transport.close());
      return new Agent({
        transport,
        transcript,
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'You are a test agent.',
        toolSpecs: BUILTIN_TOOLS.offer('gpt-5.5'),
        approvals: approveAll,
        skills,
        emit: (event) => bench.events.push(event),
      });
    }
    const newTranscript = () =>
      Transcript.create({ id: 't', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' });

    it('sends the list before the first prompt; a skill added mid-chat goes in a later message on the same chain', async () => {
      await writeSkill(path.join(bench.dir, '.agents/skills/lint'), 'lint', 'Lints the code.');
      const transcript = newTranscript();
      const agent = await agentOn(transcript);
      assert.equal((await agent.run('hello')).status, 'completed');
      const before = structuredClone(transcript.items);
      assert.match(
        first(before[0]),
        /^# Skills\n[\s\S]*- lint: Lints the code\. \(file: \.agents\/skills\/lint\/SKILL\.md\)/,
      );
      assert.equal(first(before[1]), 'hello');
      await writeSkill(path.join(bench.dir, '.github/skills/release'), 'release', 'Cuts a release.');
      assert.equal((await agent.run('again')).status, 'completed', 'the scripted model looked past the skills message');
      const after = transcript.items;
      assert.deepEqual(after.slice(0, before.length), before, 'history untouched');
      const added = after.slice(before.length);
      assert.equal(added.filter(isSkillsItem).length, 1);
      assert.match(
        first(added[0]),
        /The skills changed: this list replaces[\s\S]*- lint:[\s\S]*- release: Cuts a release\./,
      );
      assert.equal(first(added[1]), 'again');
      const requests = requestsOf(await bench.wire());
      const second = requests.at(-1)?.body as { previous_response_id?: string; input: AnyInputItem[] };
      assert.ok(second.previous_response_id, 'chained');
      assert.deepEqual(
        second.input.map(first),
        [first(added[0]), 'again'],
        'only the new items: the new list, then the prompt',
      );
    });

    it('carries a skill the prompt names after the prompt, and nothing for a name no skill has', async () => {
      await writeSkill(path.join(bench.dir, '.claude/skills/greet'), 'greet', 'Greets.', 'Say hi twice.\n');
      const transcript = newTranscript();
      const agent = await agentOn(transcript);
      assert.equal((await agent.run('hello, use $greet and $nothing')).status, 'completed');
      const [list, prompt, named, answer] = transcript.items;
      assert.ok(list && isSkillsItem(list));
      assert.equal(first(prompt), 'hello, use $greet and $nothing');
      assert.match(
        first(named),
        /^<skill name="greet" path="\.claude\/skills\/greet\/SKILL\.md">\n[\s\S]*Say hi twice\.\n<\/skill>$/,
      );
      assert.match(text(answer), /Hi\./, 'the scripted model answered the prompt, not the skill');
    });

    it('lists a folder’s own skills once, when the agent first works under it', async () => {
      await writeSkill(path.join(bench.dir, 'packages/api/.agents/skills/api-errors'), 'api-errors', 'API errors.');
      const transcript = newTranscript();
      const agent = await agentOn(transcript);
      assert.equal((await agent.run('look at the api')).status, 'completed');
      const nested = transcript.items.filter(isNestedSkillsItem);
      assert.equal(nested.length, 1);
      assert.equal(
        first(nested[0]),
        '# Skills for packages/api/\n\nMore skills, found in packages/api/, for the files under it.\n\n' +
          '<SKILLS scope="packages/api">\n- api-errors: API errors. (file: packages/api/.agents/skills/api-errors/SKILL.md)\n</SKILLS>',
      );
      assert.equal(
        transcript.items.filter((item) => isSkillsItem(item) && !isNestedSkillsItem(item)).length,
        0,
        'the root has none',
      );
      const output = transcript.items.findIndex((item) => (item as { type?: string }).type === 'function_call_output');
      assert.equal(transcript.items.indexOf(nested[0] as AnyInputItem), output + 1, 'right after the read under it');
    });

    it('finds none below the workspace folder where the workspace’s skills are not read (an untrusted window’s)', async () => {
      await writeSkill(path.join(bench.dir, 'packages/api/.agents/skills/api-errors'), 'api-errors', 'API errors.');
      const transcript = newTranscript();
      const agent = await agentOn(transcript, () => findSkills([], path.join(bench.dir, 'no-home')));
      assert.equal((await agent.run('look at the api')).status, 'completed');
      assert.deepEqual(transcript.items.filter(isSkillsItem), []);
    });
  });
});
