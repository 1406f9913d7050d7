import * as assert from 'node:assert/strict';
import type { DoneEvent, PromptWithParts } from '../../../src/agent';
import { type SteerableAgent, runWithNextPrompts } from '../../../src/cli/exec/nextPrompts';

// What `loopwire exec` runs after its task on a terminal: the steers that came too late for it, then the lines
// queued with Tab, each its own prompt, while tasks complete; otherwise each is named as not sent.

const done = (status: DoneEvent['status']): DoneEvent => ({
  type: 'done',
  status,
  reason: status,
  turns: 1,
  toolCalls: 0,
  wallMs: 1,
});

/** An agent whose tasks end as `ends` says, in turn; `late` is what its first task leaves steered. */
function fakeAgent(ends: DoneEvent['status'][], late: string[] = []) {
  const prompts: (string | PromptWithParts | undefined)[] = [];
  const agent: SteerableAgent = {
    run: (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(done(ends[prompts.length - 1] ?? 'completed'));
    },
    steer: () => false,
    takeSteers: () => late.splice(0),
  };
  return { agent, prompts };
}

describe('cli: the prompts exec runs after its task', () => {
  it('runs a late steer first, then the queued lines, in order, each said as it starts', async () => {
    const { agent, prompts } = fakeAgent([], ['too late']);
    const said: string[] = [];
    const pending = ['first queued', 'second queued'];
    const end = await runWithNextPrompts(agent, 'the task', new AbortController().signal, pending, (line) =>
      said.push(line),
    );
    assert.equal(end.status, 'completed');
    assert.deepEqual(prompts, ['the task', 'too late', 'first queued', 'second queued']);
    assert.deepEqual(said, [
      '› next prompt: too late\n',
      '› next prompt: first queued\n',
      '› next prompt: second queued\n',
    ]);
  });

  it('after a task that did not complete runs nothing more, and names each line not sent', async () => {
    const { agent, prompts } = fakeAgent(['completed', 'failed'], []);
    const said: string[] = [];
    const pending = ['one', 'two', 'three'];
    const end = await runWithNextPrompts(agent, 'the task', new AbortController().signal, pending, (line) =>
      said.push(line),
    );
    assert.equal(end.status, 'failed');
    assert.deepEqual(prompts, ['the task', 'one']);
    assert.deepEqual(said, [
      '› next prompt: one\n',
      '(not sent, the task did not complete: two)\n',
      '(not sent, the task did not complete: three)\n',
    ]);
    assert.deepEqual(pending, []);
  });
});
