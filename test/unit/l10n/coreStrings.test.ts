import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { actionFor } from '../../../src/agent/transport/retryPolicy';
import { stopLine } from '../../../src/extension/chat/entries/stopLine';
import { meterLine } from '../../../src/protocol/contextMeter';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { repoRoot } from '../support/runProcess';

// What the core hands the front ends to show (a card's line, an approval, a stop, the meter)
// comes out in the window's or terminal's language once @vscode/l10n holds its bundle, as
// l10nSetup.ts and cliL10n.ts configure it; what the model reads (a tool's description, its output) stays
// English whatever the bundle.

const zhCn = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

describe('l10n: the core’s display text in zh-cn, the model’s in English', () => {
  before(() => l10n.config({ contents: zhCn }));
  after(() => l10n.config({ contents: {} }));

  it('a plan’s card line and a shell command’s approval card', () => {
    const plan = JSON.stringify({
      plan: [
        { step: 'Step 1', status: 'completed' },
        { step: 'Step 2', status: 'in_progress' },
      ],
    });
    assert.equal(BUILTIN_TOOLS.summarize('update_plan', plan), '已完成 1/2 · Step 2');
    assert.deepEqual(BUILTIN_TOOLS.approval('exec_command', '{"cmd":"ls"}'), {
      action: '运行命令',
      object: 'ls',
      detail: '$ ls\n（位置：工作区根目录）',
    });
  });

  it('a stop of the agent loop’s own, a refused key, and the meter', () => {
    const turnLimit = l10n.t('the turn limit ({0}) was reached', 30);
    assert.deepEqual(stopLine('n1', turnLimit, 'max_turns'), {
      kind: 'notice',
      id: 'n1',
      level: 'error',
      text: '任务已停止：已达到轮次上限（30）。',
      remedy: 'showLog',
    });
    const refused = actionFor(
      { kind: 'connect_failed', status: 401, message: 'refused', retryAfterMs: undefined },
      'http',
      'http',
    );
    assert.ok(refused.action === 'stop' && refused.message.startsWith('端点拒绝了凭据：'));
    const words = (tokens: string, window: string, percent: number) =>
      l10n.t('Context: {0} of {1} tokens ({2}%)', tokens, window, percent);
    assert.equal(meterLine({ tokens: 38_412, window: 272_000 }, words), '上下文：38,412 / 272,000 个词元（14%）');
  });

  it('what the model reads stays English: a tool’s description', () => {
    assert.match(BUILTIN_TOOLS.get('update_plan')?.description ?? '', /^Updates the task plan/);
  });
});
