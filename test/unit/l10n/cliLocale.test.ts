import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { bundleFor, cliLocale } from '../../../src/cli/cliL10n';
import { repoRoot, runProcess } from '../support/runProcess';

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
});
