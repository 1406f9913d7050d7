import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findCustomAgents } from '../../../src/agent/customAgents/customAgentDiscovery';
import { parseCustomAgentFile } from '../../../src/agent/customAgents/customAgentFile';
import { HANDOFFS_MAX } from '../../../src/agent/customAgents/customAgentHandoffs';

// A custom agent's `handoffs` (VS Code's front matter): each entry checked on its own, a bad one said with its
// number and left out (the agent kept), a target resolved among the agents found, from real files.

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

function parsed(front: string) {
  const header = parseCustomAgentFile(`---\nname: Planner\n${front}\n---\nPlan.`, 'p.agent.md', '.agent.md');
  if ('problem' in header) throw new Error(header.problem);
  return header;
}

describe('custom agents: handoffs parsed', () => {
  it('reads no `mode` from the file: only a target of ask or plan gives one, which only narrows', () => {
    const header = parsed(['handoffs:', '  - { label: Wide, agent: implementer, mode: all }'].join('\n'));
    assert.deepEqual(header.handoffs, [{ label: 'Wide', agent: 'implementer' }]);
  });

  it("reads VS Code's fields: label, agent, prompt, send, model", () => {
    const header = parsed(
      [
        'handoffs:',
        '  - label: Start Implementation',
        '    agent: implementer',
        '    prompt: Now implement the plan outlined above.',
        '    send: true',
        '    model: GPT-5 (copilot)',
        '  - label: "  Review   it "',
        '    agent: reviewer',
      ].join('\n'),
    );
    assert.deepEqual(header.handoffs, [
      {
        label: 'Start Implementation',
        agent: 'implementer',
        prompt: 'Now implement the plan outlined above.',
        send: true,
        model: 'GPT-5 (copilot)',
      },
      { label: 'Review it', agent: 'reviewer' },
    ]);
    assert.equal(header.notes, undefined);
  });

  it('leaves a bad entry out with a sentence naming it, keeps the agent and its good ones; never throws', () => {
    const header = parsed(
      [
        'handoffs:',
        '  - agent: reviewer',
        '  - label: ""',
        '    agent: reviewer',
        '  - label: Go',
        '  - label: Send',
        '    agent: x',
        '    send: "yes"',
        '  - just text',
        '  - label: Fine',
        '    agent: reviewer',
        '    prompt: "   "',
      ].join('\n'),
    );
    assert.deepEqual(header.handoffs, [{ label: 'Fine', agent: 'reviewer' }], 'a blank prompt is none');
    assert.deepEqual(header.notes, [
      'its handoff 1: its `label` is missing or not text: left out',
      'its handoff 2: its `label` is empty: left out',
      'its handoff 3: its `agent` is missing or not text: left out',
      'its handoff 4: its `send` is not true or false: left out',
      'its handoff 5: it is not a mapping of fields: left out',
    ]);
    const notList = parseCustomAgentFile('---\nhandoffs: go\n---\nx', 'a.agent.md', '.agent.md');
    assert.deepEqual(notList, { problem: 'the field `handoffs` is not a list' });
  });

  it(`offers at most ${HANDOFFS_MAX}: the others are said`, () => {
    const many = Array.from({ length: HANDOFFS_MAX + 1 }, (_, i) => `  - { label: L${i}, agent: agent }`);
    const header = parsed(['handoffs:', ...many].join('\n'));
    assert.equal(header.handoffs?.length, HANDOFFS_MAX);
    assert.deepEqual(header.notes, [
      `its handoff ${HANDOFFS_MAX + 1}: an agent offers at most ${HANDOFFS_MAX}: left out`,
    ]);
  });
});

describe('custom agents: handoffs resolved among the agents found', () => {
  let dir: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'h-handoffs-')));
    write(
      path.join(dir, '.github/agents/planner.agent.md'),
      [
        '---',
        'handoffs:',
        '  - { label: Implement, agent: Implementer, prompt: Implement the plan., send: true }',
        '  - { label: Back, agent: agent }',
        '  - { label: Mine, agent: Loopwire }',
        '  - { label: Nobody, agent: ghost }',
        '  - { label: Review, agent: REVIEWER }',
        '  - { agent: implementer }',
        '  - { label: Think, agent: plan, prompt: Plan the next step. }',
        '  - { label: Question, agent: Ask }',
        '---',
        'Plan only.',
      ].join('\n'),
    );
    write(path.join(dir, '.github/agents/implementer.agent.md'), '---\nname: Implementer\n---\nImplement.');
    write(path.join(dir, '.claude/agents/reviewer.md'), '---\nhandoffs:\n  - { label: Only, agent: nobody }\n---\nR.');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names each target by the agent's own name (Loopwire for agent/Loopwire, in a mode for ask/plan); an unknown one is said and left out", async () => {
    const found = await findCustomAgents([dir], undefined);
    const planner = found.agents.find((agent) => agent.name === 'planner');
    assert.deepEqual(planner?.handoffs, [
      { label: 'Implement', agent: 'Implementer', prompt: 'Implement the plan.', send: true },
      { label: 'Back', agent: 'Loopwire' },
      { label: 'Mine', agent: 'Loopwire' },
      { label: 'Review', agent: 'reviewer' },
      { label: 'Think', agent: 'Loopwire', prompt: 'Plan the next step.', mode: 'plan' },
      { label: 'Question', agent: 'Loopwire', mode: 'read-only' },
    ]);
    assert.equal(Object.hasOwn(planner ?? {}, 'notes'), false, 'the notes are problems, not the agent’s');
    const reviewer = found.agents.find((agent) => agent.name === 'reviewer');
    assert.equal(reviewer?.handoffs, undefined, 'none left: no handoffs at all');
    assert.deepEqual(found.problems, [
      {
        file: '.github/agents/planner.agent.md',
        problem: 'its handoff 6: its `label` is missing or not text: left out',
        kept: true,
      },
      {
        file: '.github/agents/planner.agent.md',
        problem:
          "its handoff 'Nobody': the agent 'ghost' is no agent here (Loopwire, agent, ask, plan, or a custom agent: the agents here are Implementer, planner, reviewer): left out",
        kept: true,
      },
      {
        file: '.claude/agents/reviewer.md',
        problem:
          "its handoff 'Only': the agent 'nobody' is no agent here (Loopwire, agent, ask, plan, or a custom agent: the agents here are Implementer, planner, reviewer): left out",
        kept: true,
      },
    ]);
  });
});
