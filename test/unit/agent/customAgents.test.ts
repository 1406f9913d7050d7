import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  customAgentInstructions,
  customAgentModel,
  customAgentNotes,
  customAgentRegistry,
} from '../../../src/agent/customAgents/customAgentApply';
import {
  type CustomAgent,
  customAgentNamed,
  findCustomAgents,
} from '../../../src/agent/customAgents/customAgentDiscovery';
import { parseCustomAgentFile } from '../../../src/agent/customAgents/customAgentFile';
import { BUILTIN_TOOLS } from '../../../src/tools';

// Custom agents (src/agent/customAgents): VS Code's `.github/agents/*.agent.md` and Claude Code's
// `.claude/agents/*.md` (and the user's `~/.claude/agents`), read from real files in temporary folders; what a
// chosen one does to the instructions, the tools and the model.

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

function problem(text: string, file = 'a.agent.md', ending = '.agent.md'): string {
  const parsed = parseCustomAgentFile(text, file, ending);
  return 'problem' in parsed ? parsed.problem : 'no problem';
}

describe('custom agents: parsing', () => {
  it("reads VS Code's fields (a list of tools, a list of models: the first), the body as instructions", () => {
    const text =
      "---\nname: Planner\ndescription: Plans\n  before coding\ntools: ['search', 'read']\nmodel: ['GPT-5 (copilot)', 'gpt-4o']\nhandoffs:\n  - label: Go\n    agent: agent\n---\n\nPlan first.\n";
    assert.deepEqual(parseCustomAgentFile(text, 'plan.agent.md', '.agent.md'), {
      name: 'Planner',
      description: 'Plans before coding',
      tools: ['search', 'read'],
      model: 'GPT-5 (copilot)',
      handoffs: [{ label: 'Go', agent: 'agent' }],
      instructions: 'Plan first.',
    });
  });

  it("reads Claude Code's comma-separated tools; the name defaults to the file's", () => {
    const parsed = parseCustomAgentFile('---\ntools: Read, Grep ,Bash\nmodel: sonnet\n---\nReview.', 'rev.md', '.md');
    assert.deepEqual(parsed, {
      name: 'rev',
      description: '',
      tools: ['Read', 'Grep', 'Bash'],
      model: 'sonnet',
      instructions: 'Review.',
    });
    assert.deepEqual(parseCustomAgentFile('Just a body.', 'x.agent.md', '.agent.md'), {
      name: 'x',
      description: '',
      instructions: 'Just a body.',
    });
  });

  it('says what is wrong, never throws: bad YAML, wrong types, a mapping expected, the default name taken', () => {
    assert.match(problem('---\ndescription: [\n---\nGo.'), /^the front matter is not valid YAML: /);
    assert.equal(problem('---\ntools: 3\n---\nGo.'), 'the field `tools` is not a list of names');
    assert.equal(problem('---\nname: [a]\n---\nGo.'), 'the field `name` is not text');
    assert.equal(problem('---\n- a\n---\nGo.'), 'the front matter is not a mapping of fields');
    assert.match(problem('---\nname: loopwire\n---\nGo.'), /is the default agent's/);
    assert.match(problem(`---\nname: ${'n'.repeat(65)}\n---\nGo.`), /longer than 64/);
  });
});

describe('custom agents: found in the workspace and the user’s folder', () => {
  let dir: string;
  let home: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'h-custom-agents-')));
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'h-custom-agents-home-')));
    write(path.join(dir, '.github/agents/b.agent.md'), '---\ndescription: B\n---\nBe b.');
    write(path.join(dir, '.github/agents/a.agent.md'), '---\ndescription: A\n---\nBe a.');
    write(path.join(dir, '.github/agents/notes.md'), 'not an agent: no .agent.md ending');
    write(path.join(dir, '.github/agents/bad.agent.md'), '---\ntools: 3\n---\nx');
    write(path.join(dir, '.claude/agents/reviewer.md'), '---\nname: reviewer\ndescription: R\ntools: Read\n---\nR.');
    write(path.join(dir, '.claude/agents/A.md'), '---\nname: A\n---\nshadowed by a');
    write(path.join(home, '.claude/agents/reviewer.md'), '---\nname: reviewer\n---\nthe user’s, shadowed');
    write(path.join(home, '.claude/agents/mine.md'), '---\ndescription: Mine\n---\nMine.');
    fs.symlinkSync(path.join(home, '.claude/agents/mine.md'), path.join(dir, '.claude/agents/out.md'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('reads .github/agents, then .claude/agents, then ~/.claude/agents, each in name order; the first of a name wins', async () => {
    const found = await findCustomAgents([dir], home);
    assert.deepEqual(
      found.agents.map((agent) => [agent.name, agent.label, agent.scope]),
      [
        ['a', '.github/agents/a.agent.md', 'workspace'],
        ['b', '.github/agents/b.agent.md', 'workspace'],
        ['reviewer', '.claude/agents/reviewer.md', 'workspace'],
        ['mine', path.join(home, '.claude/agents/mine.md'), 'user'],
      ],
    );
    assert.deepEqual(found.problems, [
      { file: '.github/agents/bad.agent.md', problem: 'the field `tools` is not a list of names' },
      { file: '.claude/agents/A.md', problem: "the name 'A' is already .github/agents/a.agent.md's: not used" },
      {
        file: '.claude/agents/out.md',
        problem: 'it leads out of the workspace through a symbolic link: not used',
      },
      {
        file: path.join(home, '.claude/agents/reviewer.md'),
        problem: "the name 'reviewer' is already .claude/agents/reviewer.md's: not used",
      },
    ]);
    assert.equal(customAgentNamed(found.agents, 'Reviewer')?.label, '.claude/agents/reviewer.md');
    assert.equal(customAgentNamed(found.agents, 'nobody'), undefined);
  });

  it("reads none of the user's without a home, and nothing at all where the folders do not exist", async () => {
    assert.deepEqual(
      (await findCustomAgents([dir], undefined)).agents.map((agent) => agent.name),
      ['a', 'b', 'reviewer'],
    );
    assert.deepEqual(await findCustomAgents([path.join(dir, 'nowhere')], undefined), { agents: [], problems: [] });
  });
});

const agent = (fields: Partial<CustomAgent>): CustomAgent => ({
  name: 'reviewer',
  description: 'Reviews',
  instructions: 'Review only.',
  label: '.claude/agents/reviewer.md',
  scope: 'workspace',
  ...fields,
});

describe('custom agents: what a chosen one changes', () => {
  it("narrows the tools to those its names stand for (VS Code's, Claude Code's, ours) and reports the others", () => {
    const narrowed = customAgentRegistry(BUILTIN_TOOLS, agent({ tools: ['Read', 'Grep', 'search/codebase', 'fetch'] }));
    assert.deepEqual(narrowed.names.sort(), ['find_files', 'read_file', 'search_text']);
    assert.deepEqual(customAgentNotes(BUILTIN_TOOLS, agent({ tools: ['Bash', 'githubRepo'] })), [
      "custom agent reviewer: the tool 'githubRepo' is no tool of Loopwire's: left out",
    ]);
    assert.equal(customAgentRegistry(BUILTIN_TOOLS, agent({})), BUILTIN_TOOLS, 'no tools field: not narrowed');
    assert.deepEqual(customAgentRegistry(BUILTIN_TOOLS, agent({ tools: [] })).names, [], 'an empty list: none');
  });

  it('names a model on the endpoint: VS Code’s picker names made ids, inherit none, Claude’s aliases set aside', () => {
    assert.deepEqual(customAgentModel(agent({ model: 'Claude Sonnet 4 (copilot)' })), { model: 'claude-sonnet-4' });
    assert.deepEqual(customAgentModel(agent({ model: 'gpt-5.2-codex' })), { model: 'gpt-5.2-codex' });
    assert.deepEqual(customAgentModel(agent({ model: 'inherit' })), {});
    assert.match(customAgentModel(agent({ model: 'sonnet' })).ignored ?? '', /Claude Code's alias/);
    assert.match(customAgentNotes(BUILTIN_TOOLS, agent({ model: 'opus' })).join(), /the chat's model is used/);
  });

  it('heads its body with its name and file in the instructions, capped', () => {
    const text = customAgentInstructions(agent({}));
    assert.match(text, /^# Custom agent: reviewer\n/);
    assert.match(text, /defined in `\.claude\/agents\/reviewer\.md`/);
    assert.match(text, /<AGENT_INSTRUCTIONS>\nReview only\.\n<\/AGENT_INSTRUCTIONS>$/);
    const long = customAgentInstructions(agent({ instructions: 'x'.repeat(40_000) }));
    assert.match(long, /\[Cut: an agent's instructions are capped at 32 KiB\.\]/);
  });
});
