import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
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
      assert.match(result.stdout, /^loopwire exec：gpt-[\d.]+，后端 内置后端（传输 auto），审批 all，目录 /m);
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
  });
});
