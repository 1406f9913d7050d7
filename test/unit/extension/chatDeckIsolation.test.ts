import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { InlineNote } from '../../../src/extension/inline/inlineNote';
import type { RunningCommand } from '../../../src/protocol/runningCommands';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useDeckBench } from './deckHarness';

// What each chat of the window keeps to itself (issue 49): its commands running in the background (its list,
// its Stop, its write_stdin, each chat's session ids numbered from 1) and its inline edits' entries (their later
// outcome reaches the chat they were posted in, whichever is shown). Real processes on a real folder, against
// the real server over a real socket.

type Scenario = ScenarioFile['scenarios'][number];
type Step = Scenario['steps'][number];

/** A command that writes its shell's pid and runs on past its yield time; its sleep's length names it. */
const serve = (name: string, pidFile: string, sleep: string, then: Step): Scenario => ({
  name,
  match: `^${name}$`,
  steps: [
    {
      output: [
        {
          type: 'function_call' as const,
          name: 'exec_command',
          arguments: { cmd: `echo $$ > ${pidFile}; sleep ${sleep}`, yield_time_ms: 300 },
        },
      ],
    },
    then,
  ],
});

const scenario: ScenarioFile = {
  scenarios: [
    // The model, slow to answer after the call, keeps the task running: Stop comes mid-task.
    serve('serve and think', 'one.pid', '30.1', {
      fault: { kind: 'stall', after_events: 1, ms: 30_000 },
      output: [{ type: 'message', text: 'too late.' }],
    }),
    serve('serve', 'two.pid', '30.2', { output: [{ type: 'message', text: 'It runs on.' }] }),
    {
      name: 'poll',
      match: '^poll (\\d+)$',
      steps: [
        {
          output: [
            {
              type: 'function_call',
              name: 'write_stdin',
              arguments: '{"session_id": {{1}}, "chars": "", "yield_time_ms": 100}',
            },
          ],
        },
        { output: [{ type: 'message', text: 'Polled.' }] },
      ],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] },
  ],
};

/** The process whose pid `file` (in the workspace) holds runs, and is no zombie. */
function alive(dir: string, file: string): boolean {
  const pid = fs.readFileSync(path.join(dir, file), 'utf8').trim();
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const tool = (chat: ChatController, name: string) =>
  chat.model.all.findLast((entry): entry is ToolEntry => entry.kind === 'tool' && entry.name === name);

const NOTE: InlineNote = {
  kind: 'inline',
  action: 'edit',
  title: 'Edited inline in src/cart.js:10',
  outcome: 'kept',
  path: 'src/cart.js',
  line: 10,
  prompt: 'take the percent of the amount',
  diff: [],
  kept: 1,
  note: 'The discount is now that percent of the amount.',
};

describe('parallel chats: what each chat keeps to itself', function () {
  this.timeout(60_000);
  const bench = useAgentBench(scenario, {}, { tps: 2_000 });
  const ui = useDeckBench(bench);
  /** The last list of commands the page got. */
  const listed = (): RunningCommand[] | undefined => {
    const last = ui.sent.findLast((message) => message.type === 'commands');
    return last?.type === 'commands' ? last.commands : undefined;
  };
  const pidOf = (file: string) => fs.existsSync(path.join(bench.dir, file));

  it('background commands: each chat lists, polls and stops only its own; the window’s close stops the rest', async () => {
    await ui.deck.receive({ type: 'watchCommands' });
    const first = ui.deck.shown;
    const thinking = first.ask('serve and think');
    await eventually(() => pidOf('one.pid') && listed()?.length === 1, { message: 'the first chat’s command' });
    // New Chat while the first runs: the second, shown now, lists none of the first's commands.
    await ui.deck.receive({ type: 'newChat' });
    const second = ui.deck.shown;
    await eventually(() => listed()?.length === 0, { message: 'the second chat’s empty list' });
    // Session 1 is the first chat's: the second's write_stdin does not reach it.
    await second.ask('poll 1');
    assert.match(tool(second, 'write_stdin')?.output ?? '', /There is no session 1/);
    assert.ok(alive(bench.dir, 'one.pid'));
    await second.ask('serve');
    await eventually(() => pidOf('two.pid') && listed()?.length === 1, { message: 'the second chat’s command' });
    assert.match(listed()?.[0]?.command ?? '', /two\.pid/);
    // Back on the first: its own list, and its Stop ends its command only.
    await ui.deck.receive({ type: 'switchChat', id: 'chat-1' });
    await eventually(() => /one\.pid/.test(listed()?.[0]?.command ?? ''), { message: 'the first chat’s list' });
    assert.equal(listed()?.length, 1);
    await ui.deck.receive({ type: 'stop' });
    assert.equal((await thinking).status, 'cancelled');
    await eventually(() => !alive(bench.dir, 'one.pid'), { message: 'the first chat’s command stopped' });
    assert.ok(alive(bench.dir, 'two.pid'), 'the second chat’s command runs on');
    // A card's Stop in the first chat names session 1: the second chat's session 1 runs on.
    await ui.deck.receive({ type: 'stopCommand', id: 1 });
    assert.ok(alive(bench.dir, 'two.pid'), 'still runs');
    // The window closes: every chat's commands stop.
    ui.deck.dispose();
    await ui.deck.closed();
    assert.equal(alive(bench.dir, 'two.pid'), false, 'the second chat’s command stopped with the window');
    ui.reopen();
  });

  it('an inline edit’s entry stays in the chat it was posted in: its later outcome updates it there', async () => {
    ui.mode = 'ask';
    const first = ui.deck.shown;
    const running = first.ask('serve and think');
    await eventually(() => tool(first, 'exec_command')?.status === 'approval', { message: 'the approval card' });
    const inFirst = ui.deck.addInline(NOTE);
    await ui.deck.receive({ type: 'newChat' });
    const second = ui.deck.shown;
    const inSecond = ui.deck.addInline({ ...NOTE, title: 'Edited inline in src/tax.js:3' });
    const entries = (chat: ChatController) => chat.model.all.filter((entry) => entry.kind === 'inline');
    assert.equal(entries(first).length, 1);
    // Ctrl+Z after the switch: the first chat's entry says undone; the shown chat's is as it was.
    ui.deck.updateInline(inFirst, { ...NOTE, outcome: 'undone', kept: 0 });
    assert.deepEqual(
      entries(first).map((entry) => entry.kind === 'inline' && [entry.title, entry.outcome]),
      [['Edited inline in src/cart.js:10', 'undone']],
    );
    assert.deepEqual(
      entries(second).map((entry) => entry.kind === 'inline' && [entry.title, entry.outcome]),
      [['Edited inline in src/tax.js:3', 'kept']],
    );
    // And the second's, from the first shown: there.
    await ui.deck.receive({ type: 'switchChat', id: 'chat-1' });
    ui.deck.updateInline(inSecond, { ...NOTE, title: 'Edited inline in src/tax.js:3', outcome: 'undone', kept: 0 });
    assert.equal(entries(second)[0]?.kind === 'inline' && entries(second)[0]?.outcome, 'undone');
    // Kept in each chat's own transcript: the first's holds only its own edit, last said undone.
    const notes = fs
      .readFileSync(first.transcriptFile ?? '', 'utf8')
      .split('\n')
      .filter((line) => line.includes('"inline"'));
    assert.equal(notes.length, 2);
    assert.ok(notes.every((line) => line.includes('src/cart.js:10')));
    first.stop();
    await running;
  });

  it('an inline edit’s later outcome leaves a chat started over alone, where another entry may have its id', async () => {
    const chat = ui.deck.shown;
    const before = ui.deck.addInline(NOTE);
    const [old] = chat.model.all;
    // New Chat on an idle chat starts it over in place: its entries are numbered from the start again.
    await ui.deck.receive({ type: 'newChat' });
    ui.deck.addInline({ ...NOTE, title: 'Edited inline in src/tax.js:3' });
    const [now] = chat.model.all;
    assert.equal(now?.id, old?.id, 'the same id in the new conversation');
    ui.deck.updateInline(before, { ...NOTE, outcome: 'undone', kept: 0 });
    const [after] = chat.model.all;
    assert.deepEqual(after?.kind === 'inline' && [after.title, after.outcome], [
      'Edited inline in src/tax.js:3',
      'kept',
    ]);
  });
});
