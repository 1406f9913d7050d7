import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEvent } from '../../../src/agent';
import { ChatApprovals } from '../../../src/extension/chat/approvals/chatApprovals';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { SnapshotWriter, loadSnapshot, snapshotOf } from '../../../src/extension/chat/history/chatSnapshot';
import { stopOneSubagent } from '../../../src/extension/chat/entries/subagentStop';
import { alive } from '../support/processAlive';
import { type ChatEntry, HostMessage, type ToolEntry } from '../../../src/protocol/chatView';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useAgentBench } from '../agent/agentHarness';
import { SCENARIOS, subagentParent } from '../agent/subagentSupport';

// Subagents in the chat panel's model (issue 49 item 4), host side: a real agent on the bundled server over a
// real socket spawns two subagents, each reading a file on its own lane, and waits for both; its events, the
// subagents' among them, go through the chat's model as the window sends them. Each subagent is nested in its
// spawn_agent card (task, state, its read_file card, its answer) and nothing of theirs is in the conversation
// itself; the wait card says whom it waited for and what each answered; the panel's snapshot keeps it all.

describe('chat: subagents nested under the spawn_agent cards that started them', function () {
  this.timeout(30_000);
  const bench = useAgentBench(SCENARIOS, { 'a.txt': 'alpha text\n', 'b.txt': 'beta text\n' });
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function chatOfTwoHelpers(): Promise<{ model: ChatModel; sent: ChatEntry[] }> {
    const { model, sent, run } = await chat();
    const done = await run('two helpers');
    assert.equal(done.status, 'completed', done.reason);
    return { model, sent };
  }

  /** A chat's model fed the events of a real agent that may spawn subagents, asking as the panel asks where `ask`. */
  async function chat(ask = false) {
    const sent: ChatEntry[] = [];
    const model = new ChatModel(
      (message) => {
        // Every message the page gets is one the page's schema reads.
        const checked = HostMessage.parse(JSON.parse(JSON.stringify(message)));
        if (checked.type === 'entry') sent.push(checked.entry);
      },
      () => Promise.resolve(undefined),
    );
    model.tools = BUILTIN_TOOLS;
    const waiting: string[] = [];
    const approvals = new ChatApprovals({
      model,
      workspace: () => NodeWorkspace.open(bench.dir),
      approvalMode: () => 'ask',
      panelShown: () => true,
      askElsewhere: () => Promise.resolve(false),
      onAllowed: () => undefined,
      // What the window's badge and notifications say of each call waiting.
      onWaiting: (calls) => waiting.push(...calls.map((call) => call.action)),
    });
    // The chat's model takes each event as it comes, as the window hands them over.
    const live = new (class extends Array<AgentEvent> {
      override push(...events: AgentEvent[]): number {
        for (const event of events) model.handle(event);
        return super.push(...events);
      }
    })();
    const built = await subagentParent(bench, live, ask ? approvals.policy() : undefined);
    close = built.close;
    return { model, sent, approvals, waiting, run: built.run, transcript: built.transcript };
  }

  const tools = (entries: readonly ChatEntry[]) => entries.filter((entry): entry is ToolEntry => entry.kind === 'tool');

  it('shows each subagent in its spawn card, with its call and answer, and the wait card with both answers', async () => {
    const { model } = await chatOfTwoHelpers();
    const cards = tools(model.all);
    assert.deepEqual(
      cards.map((card) => card.name),
      ['spawn_agent', 'spawn_agent', 'wait', 'wait'],
      "the subagents' own calls are not the conversation's",
    );
    assert.ok(!model.all.some((entry) => entry.kind === 'assistant' && /read .\.txt/.test(entry.text)));
    const [alpha, beta, firstWait, lastWait] = cards;
    for (const [card, name, file] of [
      [alpha, 'alpha', 'a.txt'],
      [beta, 'beta', 'b.txt'],
    ] as const) {
      const view = card?.subagent;
      assert.ok(view, `${name}'s spawn card holds its subagent`);
      assert.equal(view.task, `helper ${name} reads ${file}`);
      assert.equal(view.state, 'done');
      assert.deepEqual(
        view.calls.map((call) => [call.name, call.status, call.summary]),
        [['read_file', 'done', file]],
      );
      assert.match(view.calls[0]?.output ?? '', new RegExp(`${name} text`));
      assert.equal(view.answer, `${name} read ${file}`);
      assert.equal((JSON.parse(card?.output ?? '{}') as { agent_id?: string }).agent_id, view.id);
    }
    // The first wait returned as soon as one had answered: the other was still running then.
    const answers = { [alpha?.subagent?.id ?? '']: 'alpha read a.txt', [beta?.subagent?.id ?? '']: 'beta read b.txt' };
    const first = firstWait?.waited ?? [];
    assert.equal(first.length, 2);
    assert.ok(first.some((agent) => agent.state === 'done' && agent.line === answers[agent.id]));
    assert.ok(first.every((agent) => agent.state === 'running' || agent.line === answers[agent.id]));
    assert.deepEqual(lastWait?.waited, [
      { id: alpha?.subagent?.id, state: 'done', line: 'alpha read a.txt' },
      { id: beta?.subagent?.id, state: 'done', line: 'beta read b.txt' },
    ]);
  });

  it("the panel's snapshot keeps them: a chat reopened shows the same cards", async () => {
    const { model } = await chatOfTwoHelpers();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-subagent-snapshot-'));
    try {
      const writer = SnapshotWriter.of(dir, (error) => assert.fail(String(error)));
      await writer.save(snapshotOf('chat-1', false, model, [], []));
      const { snapshot, problem } = loadSnapshot(dir, 'chat-1');
      assert.equal(problem, undefined);
      assert.deepEqual(snapshot?.entries, JSON.parse(JSON.stringify(model.all)));
      const reopened = new ChatModel(
        () => undefined,
        () => Promise.resolve(undefined),
      );
      reopened.reset(snapshot?.entries ?? []);
      const spawns = tools(reopened.all).filter((card) => card.subagent);
      assert.equal(spawns.length, 2);
      assert.ok(spawns.every((card) => card.subagent?.state === 'done' && card.subagent.calls.length === 1));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  /** The first of the subagents' calls that asks, once one does. */
  async function asking(model: ChatModel) {
    for (;;) {
      const calls = tools(model.all).flatMap((card) => card.subagent?.calls ?? []);
      const call = calls.find((candidate) => candidate.status === 'approval');
      if (call) return call;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("a subagent's command asks on its nested card, and the answer given there runs it", async () => {
    const { model, approvals, run } = await chat(true);
    const task = run('a helper that writes');
    const call = await asking(model);
    assert.equal(call.name, 'exec_command');
    assert.match(call.ask?.action ?? '', /touch made-by-helper/);
    assert.equal(model.tool(call.id), undefined, 'asked on the nested card, not as a card of the chat');
    approvals.answer(call.id, true, false);
    const done = await task;
    assert.equal(done.status, 'completed', done.reason);
    const ran = tools(model.all)
      .flatMap((card) => card.subagent?.calls ?? [])
      .find((candidate) => candidate.id === call.id);
    assert.equal(ran?.status, 'done');
    assert.equal(ran.ask, undefined);
    assert.ok(fs.existsSync(path.join(bench.dir, 'made-by-helper')), 'the command ran once allowed');
  });

  it("a subagent's edit asks what it changes, as the chat's own: the file named, its diff shown", async () => {
    const { model, approvals, waiting, run } = await chat(true);
    const task = run('a helper that patches');
    const call = await asking(model);
    assert.equal(call.name, 'apply_patch');
    // It said "Apply edit to the workspace" with no file and no detail: its card was not looked up.
    assert.deepEqual(call.ask, {
      action: 'Apply edit to `patched.txt`',
      detail: 'create patched.txt',
      effect: 'write',
    });
    assert.deepEqual(waiting, ['Apply edit to `patched.txt`'], "the badge's and the notification's words");
    assert.deepEqual(
      call.diff?.map((file) => [file.path, file.op]),
      [['patched.txt', 'create']],
    );
    approvals.answer(call.id, true, false);
    const done = await task;
    assert.equal(done.status, 'completed', done.reason);
    const ran = tools(model.all)
      .flatMap((card) => card.subagent?.calls ?? [])
      .find((candidate) => candidate.id === call.id);
    assert.equal(ran?.status, 'done');
    assert.equal(ran.diff, undefined, 'the proposal goes once the edit ran');
    assert.equal(fs.readFileSync(path.join(bench.dir, 'patched.txt'), 'utf8'), 'patched\n');
  });

  /** Resolves once `found` finds something in the chat's entries. */
  async function until<T>(model: ChatModel, found: (entries: readonly ChatEntry[]) => T | undefined): Promise<T> {
    for (;;) {
      const value = found(model.all);
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("a subagent's own Stop stops it alone: its command is gone, the parent's wait says closed, the task goes on", async () => {
    const { model, approvals, transcript, run } = await chat();
    const task = run('a napper and a reader');
    const pidFile = path.join(bench.dir, 'napper.pid');
    const napper = await until(model, (entries) => {
      const card = tools(entries).find((entry) => entry.subagent?.task === 'helper dozes napper.pid');
      const napping = card?.subagent?.calls.some((call) => call.status === 'running') && fs.existsSync(pidFile);
      return napping ? card?.subagent?.id : undefined;
    });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await stopOneSubagent({ model, approvals, transcript }, napper ?? '');
    const done = await task;
    assert.equal(done.status, 'completed', done.reason);
    assert.equal(await alive(pid), false, 'its sleep was stopped with it');
    const cards = tools(model.all);
    const stopped = cards.find((card) => card.subagent?.id === napper)?.subagent;
    assert.equal(stopped?.state, 'stopped');
    assert.notEqual(stopped.calls[0]?.status, 'running');
    const reader = cards.find((card) => card.subagent && card.subagent.id !== napper)?.subagent;
    assert.deepEqual([reader?.state, reader?.answer], ['done', 'alpha read a.txt'], 'the other went on');
    const waits = cards.filter((card) => card.name === 'wait').map((card) => card.waited);
    assert.deepEqual(waits[0], [{ id: napper, state: 'closed' }], "the parent's wait: closed");
    assert.equal(waits[1]?.[0]?.state, 'done');
    assert.equal(model.all.at(-1)?.kind, 'assistant', 'the task answered');
  });

  it('a Stop on a subagent that asks declines its question first, then stops it', async () => {
    const { model, approvals, transcript, run } = await chat(true);
    const task = run('a helper that writes');
    const call = await asking(model);
    const id = tools(model.all).find((card) => card.subagent?.calls.some((nested) => nested.id === call.id))?.subagent
      ?.id;
    await stopOneSubagent({ model, approvals, transcript }, id ?? '');
    const done = await task;
    assert.equal(done.status, 'completed', done.reason);
    const view = tools(model.all).find((card) => card.subagent?.id === id)?.subagent;
    assert.equal(view?.state, 'stopped');
    assert.equal(view.calls[0]?.status, 'declined');
    assert.ok(!fs.existsSync(path.join(bench.dir, 'made-by-helper')), 'the command never ran');
  });
});
