import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { AgentEvent } from '../../../src/agent';
import { ExecRenderer } from '../../../src/cli/exec/execRenderer';
import { type CardBoard, ToolCards } from '../../../src/extension/chat/entries/toolCards';
import type { ChatEntry } from '../../../src/protocol/chatView';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { repoRoot } from '../support/runProcess';

// A finished call carries the model's English as `output` (what `--json` programs match on) and the person's
// copy as `shown`: the terminal's renderer and the panel's card show `shown`, and `output` where there is none.

const zhCn = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

const ENGLISH = "Task 'npm: test' finished with exit code 1 after 1.2 s.\n--- output ---\nnot ok 1 - totals";
const CHINESE = '已结束，退出代码 1，用时 1.2 秒。\n--- 输出 ---\nnot ok 1 - totals';

const finished = (shown?: string): Extract<AgentEvent, { type: 'tool_finished' }> => ({
  type: 'tool_finished',
  turn: 1,
  callId: 'c1',
  name: 'run_task',
  ok: false,
  output: ENGLISH,
  ...(shown === undefined ? {} : { shown }),
  durationMs: 1200,
});

function printed(event: AgentEvent): string {
  let text = '';
  const renderer = new ExecRenderer({ stdout: (chunk) => (text += chunk), stderr: () => {}, color: false });
  renderer.handle(event);
  return text;
}

/** The card's output once `event` finished its call. */
function cardOutput(event: Extract<AgentEvent, { type: 'tool_finished' }>): string | undefined {
  const entries = new Map<string, ChatEntry>();
  const board: CardBoard = {
    entries: () => [...entries.values()],
    get: (id) => entries.get(id),
    add: (entry) => entries.set(entry.id, entry),
    replace: (entry) => entries.set(entry.id, entry),
    adopt: (entry) => entries.set(entry.id, entry),
    remove: (ids) => ids.forEach((id) => entries.delete(id)),
  };
  const cards = new ToolCards(
    board,
    () => BUILTIN_TOOLS,
    () => Promise.resolve(undefined),
    0,
  );
  cards.started({ type: 'tool_started', turn: 1, callId: 'c1', name: 'run_task', kind: 'function', input: '{}' });
  cards.finished(event);
  const card = entries.get('c1');
  return card?.kind === 'tool' ? card.output : undefined;
}

describe('l10n: the terminal and the card show a call’s `shown` copy, programs get `output`', () => {
  before(() => l10n.config({ contents: zhCn }));
  after(() => l10n.config({ contents: {} }));

  it('the CLI’s renderer prints the Chinese first line and output', () => {
    assert.equal(
      printed(finished(CHINESE)),
      '  ✗ 已结束，退出代码 1，用时 1.2 秒。 (1200 ms)\n    not ok 1 - totals\n',
    );
    assert.equal(printed(finished()), `  ✗ ${ENGLISH.split('\n')[0]} (1200 ms)\n    not ok 1 - totals\n`);
  });

  it('a command still running: its label is left out in both languages, as a finished one’s', () => {
    const running = (output: string, shown?: string): AgentEvent => ({
      ...finished(shown),
      name: 'exec_command',
      ok: true,
      output,
    });
    const english = 'The command is still running, in the background as session_id 3. Poll it …';
    assert.equal(
      printed(running(`${english}\n--- output so far ---\nlistening on 8080`)),
      `  ✓ ${english} (1200 ms)\n    listening on 8080\n`,
    );
    const chinese = '仍在运行，在后台作为会话 3。\n--- 目前的输出 ---\nlistening on 8080';
    assert.equal(
      printed(running(`${english}\n--- output so far ---\nlistening on 8080`, chinese)),
      '  ✓ 仍在运行，在后台作为会话 3。 (1200 ms)\n    listening on 8080\n',
    );
  });

  it('the panel’s card shows `shown`, else `output`', () => {
    assert.equal(cardOutput(finished(CHINESE)), CHINESE);
    assert.equal(cardOutput(finished()), ENGLISH);
  });
});
