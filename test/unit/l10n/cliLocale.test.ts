import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { AgentEvent } from '../../../src/agent/events';
import { bundleFor, cliLocale } from '../../../src/cli/cliL10n';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// The CLI follows the terminal's locale, as POSIX orders its variables, with the extension's own bundles.

describe('l10n: the CLI follows LANG', () => {
  it('reads LC_ALL, then LC_MESSAGES, then LANG, and drops the encoding', () => {
    assert.equal(cliLocale({ LANG: 'zh_CN.UTF-8' }), 'zh-cn');
    assert.equal(cliLocale({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'en_US.UTF-8' }), 'en-us');
    assert.equal(cliLocale({ LANG: 'en_US.UTF-8', LC_ALL: 'zh_CN.GB18030' }), 'zh-cn');
    assert.equal(cliLocale({ LANG: 'zh_CN', LC_ALL: '' }), 'zh-cn');
    assert.equal(cliLocale({ LANG: 'C.UTF-8' }), undefined);
    assert.equal(cliLocale({ LC_ALL: 'POSIX', LANG: 'zh_CN.UTF-8' }), undefined);
    assert.equal(cliLocale({}), undefined);
  });

  it('finds the locale’s bundle, or its language’s, or none', () => {
    const dir = path.join(repoRoot, 'l10n');
    assert.equal(bundleFor('zh-cn', dir), path.join(dir, 'bundle.l10n.zh-cn.json'));
    assert.equal(bundleFor('fr-fr', dir), undefined);
  });

  it('`loopwire --help` speaks Simplified Chinese under LANG=zh_CN.UTF-8, English otherwise', async () => {
    const loopwire = path.join(repoRoot, 'dist', 'cli', 'loopwire.js');
    const env = { ...process.env, LC_ALL: '', LC_MESSAGES: '' };
    const chinese = await runProcess(process.execPath, [loopwire, '--help'], '', { ...env, LANG: 'zh_CN.UTF-8' });
    assert.equal(chinese.code, 0, chinese.stderr);
    assert.match(chinese.stdout, /^用法：loopwire <command> \[options\]$/m);
    assert.match(chinese.stdout, /^命令：$/m);
    const english = await runProcess(process.execPath, [loopwire, '--help'], '', { ...env, LANG: 'en_US.UTF-8' });
    assert.match(english.stdout, /^usage: loopwire <command> \[options\]$/m);
  });

  describe('`loopwire exec` on the demo, offline', () => {
    const temp = useTempWorkspace({}, { prefix: 'l10n' });

    it('says what it does and how it ended in Chinese; what the model and the tools say stays as they said it', async function () {
      this.timeout(60_000);
      const dir = temp.path('workspace');
      await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
      const args = ['exec', '--workspace', dir, '--sessions-dir', temp.path('sessions'), '--approve', 'all'];
      const env = { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'zh_CN.UTF-8' };
      const bin = path.join(repoRoot, 'dist', 'cli', 'loopwire.js');
      const result = await runProcess(process.execPath, [bin, ...args, 'Fix the failing test.'], '', env);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.match(
        result.stdout,
        /^loopwire exec：gpt-[\d.]+，后端 内置后端（传输 auto），审批 all，沙箱 [^，]+，目录 /m,
      );
      assert.match(result.stdout, /… \d+ 行（--verbose 显示全部）|… 前面还有 \d+ 行（--verbose 显示全部）/);
      assert.match(
        result.stdout,
        /\n完成：.* · 6 轮 · 5 次工具调用 · .* 个词元 · [\d.]+ s · 客户端开销 [\d.]+ 毫秒\/轮 · 每轮发送 .*\n$/,
      );
      // How the task ended is the person's line, in Chinese; the model was sent the tool's English (the session).
      assert.match(result.stdout, /✓ 已结束，退出代码 0，用时 [\d.]+ 秒。/);
      const sessions = temp.path('sessions');
      const files = (await fs.readdir(sessions, { recursive: true })).filter((name) => name.endsWith('.jsonl'));
      const saved = await Promise.all(files.map((name) => fs.readFile(path.join(sessions, name), 'utf8')));
      assert.match(saved.join(''), /Task 'npm: test' finished with exit code 0 after [\d.]+ s\./);
    });

    it('`--json` keeps each tool’s output in the model’s English; the Chinese the person reads is `shown`', async function () {
      this.timeout(60_000);
      const dir = temp.path('json-workspace');
      await fs.cp(path.join(repoRoot, 'demo/workspace'), dir, { recursive: true });
      const args = ['exec', '--workspace', dir, '--sessions-dir', temp.path('json-sessions'), '--approve', 'all'];
      const env = { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'zh_CN.UTF-8' };
      const bin = path.join(repoRoot, 'dist', 'cli', 'loopwire.js');
      const result = await runProcess(process.execPath, [bin, ...args, '--json', 'Fix the failing test.'], '', env);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      // Every line is an event of the one schema: a program outside this repo reads them.
      const events = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => AgentEvent.parse(JSON.parse(line)));
      const tasks = events.filter((event) => event.type === 'tool_finished' && event.name === 'run_task');
      assert.equal(tasks.length, 2, 'the demo runs its tests before the fix and after');
      for (const task of tasks) {
        assert.ok(task.type === 'tool_finished');
        const [head, label, ...rest] = task.output.split('\n');
        assert.match(head ?? '', /^Task 'npm: test' finished with exit code [01] after [\d.]+ s\.$/);
        assert.equal(label, '--- output ---');
        const [shownHead, shownLabel, ...shownRest] = (task.shown ?? '').split('\n');
        assert.match(shownHead ?? '', /^已结束，退出代码 [01]，用时 [\d.]+ 秒。$/);
        assert.equal(shownLabel, '--- 输出 ---');
        assert.deepEqual(shownRest, rest, 'the run’s own output is the same in both');
      }
      // A call with nothing to translate carries no `shown`; how the task ended is read from `status` and `code`.
      const search = events.find((event) => event.type === 'tool_finished' && event.name === 'search_text');
      assert.ok(search?.type === 'tool_finished' && search.shown === undefined);
      const done = events.at(-1);
      assert.ok(done?.type === 'done');
      assert.equal(done.status, 'completed');
      assert.equal(done.reason, '模型已作答');
    });
  });
});
