import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { type AgentEvent, type ApprovalPolicy, Transcript } from '../../../src/agent';
import { ToolRunner } from '../../../src/agent/toolRunner';
import { editError } from '../../../src/edit/errors';
import type { CallItem } from '../../../src/protocol';
import { type ToolContext, type ToolResult, runToolCall } from '../../../src/tools';
import { runReport } from '../../../src/tools/runReport';
import { fromEditError } from '../../../src/tools/toolErrors';
import { type ToolBench, toolBench } from '../tools/toolHarness';
import { repoRoot } from '../support/runProcess';

// A failed call as the person watching reads it (the card, the terminal): in their language, made from the
// error's code and arguments; what the model reads (`output`) is the same English, byte for byte, whatever
// the language. English has no `shown` copy: the model's words are shown as they are.

const zhCn = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

const english = () => l10n.config({ contents: {} });
const chinese = () => l10n.config({ contents: zhCn });

/** `make` run in English, then in zh-cn: both results. */
async function inBoth(make: () => Promise<ToolResult> | ToolResult): Promise<{ en: ToolResult; zh: ToolResult }> {
  english();
  const en = await make();
  chinese();
  try {
    return { en, zh: await make() };
  } finally {
    english();
  }
}

/** The bench's context, whose next write finds `rel` changed on disk first (someone saved it meanwhile). */
function savedMeanwhile(bench: ToolBench, rel: string): ToolContext {
  const applyPlan = bench.workspace.applyPlan.bind(bench.workspace);
  return {
    ...bench.context,
    workspace: Object.assign(Object.create(bench.workspace) as typeof bench.workspace, {
      applyPlan: async (...args: Parameters<typeof applyPlan>) => {
        await bench.write(rel, 'someone else saved this\n');
        return applyPlan(...args);
      },
    }),
  };
}

describe('l10n: a failed tool call’s display in zh-cn, its output for the model in English', () => {
  after(english);

  it('not_found: read_file of a missing file', async () => {
    const bench = await toolBench({ 'a.txt': 'a\n' });
    const { en, zh } = await inBoth(() => bench.run('read_file', { path: 'src/missing.ts' }));
    assert.equal(en.ok, false);
    assert.equal(en.output, 'src/missing.ts does not exist; find_files can list what does.');
    assert.equal(en.shown, undefined, 'English shows the model’s words');
    assert.equal(zh.output, en.output, 'the model reads the same English');
    assert.equal(zh.shown, '找不到 src/missing.ts。');
  });

  it('changed_on_disk: an edit whose file was saved by someone else before it was written', async () => {
    const run = async () => {
      const bench = await toolBench({ 'a.txt': 'one\ntwo\n' });
      await bench.run('read_file', { path: 'a.txt' });
      const edits = [{ old_string: 'two', new_string: 'three' }];
      const call = {
        kind: 'function' as const,
        name: 'edit_file',
        arguments: JSON.stringify({ path: 'a.txt', edits }),
      };
      return runToolCall(call, savedMeanwhile(bench, 'a.txt'));
    };
    const { en, zh } = await inBoth(run);
    assert.equal(en.ok, false);
    assert.match(en.output, /^a\.txt changed on disk since it was read; nothing was written\. Read it again\./);
    assert.equal(zh.output, en.output);
    assert.equal(zh.shown, 'a.txt 在读取后已在磁盘上被更改；未写入任何内容。');
  });

  it('invalid arguments: the fields named, zod’s words left to the model', async () => {
    const bench = await toolBench({});
    const { en, zh } = await inBoth(() => bench.run('read_file', { path: 3 }));
    assert.match(en.output, /^Invalid arguments for read_file: path: /);
    assert.equal(zh.output, en.output);
    assert.equal(zh.shown, '模型调用 read_file 时参数无效：path。');
  });

  it('the call’s own refusals: a tool that does not exist, arguments that are not JSON', async () => {
    const bench = await toolBench({});
    const call = (name: string, args: string) =>
      runToolCall({ kind: 'function', name, arguments: args }, bench.context);
    const unknown = await inBoth(() => call('delete_everything', '{}'));
    assert.match(unknown.en.output, /^There is no tool 'delete_everything'\. The tools are: /);
    assert.equal(unknown.zh.output, unknown.en.output);
    assert.equal(unknown.zh.shown, '模型调用了不存在的工具：delete_everything。');
    const notJson = await inBoth(() => call('read_file', '{path:'));
    assert.match(notJson.en.output, /^The arguments of read_file are not valid JSON \(/);
    assert.equal(notJson.zh.output, notJson.en.output);
    assert.equal(notJson.zh.shown, '模型发给 read_file 的参数不是有效的 JSON。');
  });

  it('an edit engine’s refusal names the file and the edit', async () => {
    const error = editError('no_match', 'edit 1: old_string was not found in a.ts. The closest text is …', {
      path: 'a.ts',
      edit: 1,
    });
    const { en, zh } = await inBoth(() => fromEditError(error));
    assert.equal(en.output, `${error.message}\nNothing was changed.`);
    assert.equal(zh.output, en.output);
    assert.equal(zh.shown, 'a.ts，第 1 处编辑：文件中找不到要替换的文本。\n未做任何更改。');
  });

  it('a command’s first line: how it ended; its output as it was', async () => {
    const run = { exitCode: 2, timedOut: false, durationMs: 1234, output: 'boom\n', outputTruncated: false };
    const { en, zh } = await inBoth(() => runReport('The command', 300, run));
    assert.equal(en.output, 'The command finished with exit code 2 after 1.2 s.\n--- output ---\nboom');
    assert.equal(en.shown, undefined);
    assert.equal(zh.output, en.output);
    assert.equal(zh.shown, '已结束，退出代码 2，用时 1.2 秒。\n--- 输出 ---\nboom');
  });

  it('an output cut to the model’s budget: the whole of it in English (display) and in the person’s words (shown)', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n');
    const run = { exitCode: 0, timedOut: false, durationMs: 500, output: text, outputTruncated: false };
    const { en, zh } = await inBoth(() => runReport('The command', 300, run, 100));
    assert.match(en.output, /lines \([\d,]+ characters\) cut from the middle/);
    assert.equal(en.display, `The command finished with exit code 0 after 0.5 s.\n--- output ---\n${text}`);
    assert.equal(en.shown, undefined);
    assert.equal(zh.output, en.output);
    assert.equal(zh.display, en.display, 'the whole output in the model’s words, in every language');
    assert.equal(zh.shown, `已结束，退出代码 0，用时 0.5 秒。\n--- 输出 ---\n${text}`);
  });

  it('a declined call: tool_finished’s output is the model’s English, its `shown` the person’s zh-cn', async () => {
    const decline: ApprovalPolicy = { approve: () => Promise.resolve(false), mode: () => 'ask' };
    const call: CallItem = { type: 'function_call', call_id: 'c1', name: 'write_file', arguments: '{"path":"a"}' };
    const bench = await toolBench({});
    const runOnce = async () => {
      const events: AgentEvent[] = [];
      const transcript = Transcript.create({ id: 't', createdAt: '', workspace: bench.root, model: 'gpt-5.5' });
      const runner = new ToolRunner(bench.context, decline, transcript, (event) => events.push(event));
      await runner.runAll(1, [call], new AbortController().signal);
      const finished = events.find((event) => event.type === 'tool_finished');
      assert.ok(finished?.type === 'tool_finished');
      const answer = transcript.items.at(-1);
      return { model: answer && 'output' in answer ? String(answer.output) : '', finished };
    };
    english();
    const en = await runOnce();
    chinese();
    const zh = await runOnce().finally(english);
    assert.match(en.model, /^The user declined this write_file call; nothing was changed\./);
    assert.equal(en.finished.output, en.model, 'English: the card shows the model’s words');
    assert.equal(en.finished.shown, undefined);
    assert.equal(zh.model, en.model);
    assert.equal(zh.finished.output, en.model, 'a program reading the event gets the same English');
    assert.equal(zh.finished.shown, '未运行：未获批准。未做任何更改。');
  });
});
