import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { displayLanguageZhCn } from './languagePack';
import { useWorkbench } from './suite';
import { ARTIFACTS, type Workbench, until } from './workbench';

// The panel in Simplified Chinese, in the real workbench (issue 40, item 3). VS Code hands an extension the
// bundle of the window's language (vscode.env.language): l10n/bundle.l10n.zh-cn.json to the extension and,
// through data-l10n, to the page; package.nls.zh-cn.json to the manifest. code-server makes a language the
// window's only where a language pack for it is installed, and VS Code's Chinese pack cannot be fetched
// offline: the test gives the profile a stub one (its list in languagepacks.json, its file translating
// nothing, so VS Code's own words stay English), then sets the display language as Configure Display
// Language does (`locale` in the profile's argv.json, which code-server reads before a cookie or the
// browser's Accept-Language) and reloads. Loopwire's words are then its own Chinese.
// Screenshots in test-artifacts/workbench/l10n/. This machine's Chromium has no CJK font, so it draws the
// Chinese as boxes (the assertions read the text, and hold either way); LOOPWIRE_CJK_FONTS=DIR adds a folder
// of fonts for the run, e.g. `npm pack @embedpdf/fonts-sc@1.0.0` unpacked (Noto Sans Hans, OFL), DIR its
// package/fonts.

const L10N_ARTIFACTS = path.join(ARTIFACTS, 'l10n');
const PROMPT = 'Fix the failing test.';

/** Chromium's fontconfig with the fonts of `dir` added (its own copy of the system's configuration). */
function withFonts(dir: string): string {
  const config = path.join(L10N_ARTIFACTS, 'fonts.conf');
  fs.mkdirSync(L10N_ARTIFACTS, { recursive: true });
  fs.writeFileSync(
    config,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${dir}</dir>\n</fontconfig>\n`,
  );
  return config;
}

describe('Loopwire in the VS Code workbench: the panel in Simplified Chinese', function () {
  this.timeout(240_000);
  let workbench: Workbench;
  const fonts = process.env['LOOPWIRE_CJK_FONTS'];
  const fontconfig = process.env['FONTCONFIG_FILE'];
  // Before the workbench's start: Chromium takes the process's environment when it is launched.
  before(() => {
    if (fonts) process.env['FONTCONFIG_FILE'] = withFonts(fonts);
  });
  after(() => {
    if (fontconfig === undefined) delete process.env['FONTCONFIG_FILE'];
    else process.env['FONTCONFIG_FILE'] = fontconfig;
  });
  useWorkbench((started) => (workbench = started), { artifacts: L10N_ARTIFACTS });

  let panel: Frame;
  before(async function () {
    this.timeout(180_000);
    displayLanguageZhCn(workbench.userData);
    await workbench.reload();
    panel = await workbench.panel();
  });

  it('the page is told the window’s language and shows its own words in Chinese', async () => {
    assert.equal(await panel.locator('html').getAttribute('lang'), 'zh-cn');
    const welcome = panel.locator('.welcome-intro');
    await welcome.waitFor();
    assert.match((await welcome.textContent()) ?? '', /^Loopwire 在此工作区中工作/);
    assert.equal(await panel.locator('.composer-pickers').getAttribute('aria-label'), '请求设置');
    await workbench.screenshot('panel-zh-cn', { sidebar: true });
  });

  it('a task’s approval card, its action and its buttons speak Chinese; the prompt goes to the model as typed', async () => {
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill(PROMPT);
    await prompt.press('Enter');
    await panel.locator('.entry.user .bubble', { hasText: PROMPT }).waitFor();
    const waiting = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    await until('a card waiting for approval', async () => ((await waiting.count()) > 0 ? true : undefined), 90_000);
    assert.equal(await waiting.locator('.tool-status').textContent(), '等待你处理');
    // Written by the host (approvalAsk.ts, free of vscode): @vscode/l10n with the bundle VS Code handed over.
    assert.equal(await waiting.locator('.approval-action').textContent(), '运行任务 npm: test — node --test');
    assert.equal((await waiting.locator('.approval button[data-action="skip"]').textContent())?.trim(), '跳过');
    await workbench.screenshot('approval-zh-cn', { sidebar: true });
    await workbench.screenshot('window-zh-cn');
  });

  it('a task’s card, a skipped call and a failed one say how they went in Chinese; the model was told in English', async () => {
    // The task the test before left waiting: Run. The demo's tests fail at first, so its card ends failed,
    // its first line the person's (exit code, time), its output the test runner's own.
    const task = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    const taskId = await task.getAttribute('data-id');
    await task.locator('.approval button[data-action="allow"]').click();
    const ran = panel.locator(`.entry.tool[data-id="${taskId ?? ''}"] .tool-card.status-failed`);
    await ran.waitFor({ timeout: 90_000 });
    await ran.locator('.tool-output summary').click();
    assert.match(
      (await ran.locator('.tool-output pre').textContent()) ?? '',
      /^已结束，退出代码 1，用时 [\d.]+ 秒。\n--- 输出 ---\n/,
    );
    await ran.scrollIntoViewIfNeeded();
    await workbench.screenshot('task-card-zh-cn', { sidebar: true });
    // The edit it asks for next: Skip, then the task is stopped.
    const edit = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
    await edit.waitFor({ timeout: 90_000 });
    const skippedId = await edit.getAttribute('data-id');
    await edit.locator('.approval button[data-action="skip"]').click();
    const skipped = panel.locator(`.entry.tool[data-id="${skippedId ?? ''}"] .tool-card.status-declined`);
    await skipped.waitFor();
    assert.equal(await skipped.locator('.tool-status').textContent(), '已跳过');
    assert.equal(await skipped.locator('.tool-output pre').textContent(), '未运行：未获批准。未做任何更改。');
    const stop = panel.locator('.toolbar button[aria-label="停止"]');
    if (await stop.isEnabled()) await stop.click();
    await until('the task stopped', async () => ((await stop.isDisabled()) ? true : undefined), 60_000);
    // A file that is not there: read_file fails with the Workspace port's not_found.
    const prompt = panel.locator('textarea.prompt');
    await prompt.fill('read src/missing.js');
    await prompt.press('Enter');
    const failed = panel.locator('.entry.tool .tool-card.status-failed').last();
    await until(
      'the read’s card',
      async () => ((await failed.textContent())?.includes('src/missing.js') ? true : undefined),
      90_000,
    );
    assert.equal(await failed.locator('.tool-status').textContent(), '失败');
    await failed.locator('.tool-output summary').click();
    assert.equal(await failed.locator('.tool-output pre').textContent(), '找不到 src/missing.js。');
    await failed.scrollIntoViewIfNeeded();
    await workbench.screenshot('failed-card-zh-cn', { sidebar: true });
  });
});
