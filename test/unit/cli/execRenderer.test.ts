import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ExecRenderer, OUTPUT_PREVIEW_LINES } from '../../../src/cli/exec/execRenderer';

// What `loopwire exec` prints for each event, on text and on a colour terminal. The spawned runs in
// exec.test.ts show the same on the real bin; these pin the edges (colour, footers, control characters).

function render(events: AgentEvent[], options: { color?: boolean; verbose?: boolean } = {}): string {
  let text = '';
  const renderer = new ExecRenderer({
    stdout: (chunk) => (text += chunk),
    stderr: (chunk) => (text += chunk),
    color: options.color ?? false,
    verbose: options.verbose,
  });
  for (const event of events) renderer.handle(event);
  return text;
}

const finished = (name: string, output: string, extra: Partial<AgentEvent> = {}): AgentEvent =>
  ({ type: 'tool_finished', turn: 1, callId: 'c', name, ok: true, output, durationMs: 3, ...extra }) as AgentEvent;

const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

const done: AgentEvent = {
  type: 'done',
  status: 'completed',
  reason: 'the model answered',
  turns: 2,
  toolCalls: 3,
  wallMs: 10,
};

describe('cli: exec renderer, what tools returned', () => {
  it('shows a short output whole, indented under the tool line', () => {
    assert.equal(
      render([finished('search_text', 'src/a.js:1: hit\nsrc/b.js:9: hit\n(2 matches in 2 files)')]),
      '  ✓ 3 lines (3 ms)\n    src/a.js:1: hit\n    src/b.js:9: hit\n    (2 matches in 2 files)\n',
    );
  });

  it(`shows the first ${OUTPUT_PREVIEW_LINES} lines of a long one, how many were left out, and its footer`, () => {
    const text = render([finished('read_file', `${numbered(30).join('\n')}\n(a.txt: lines 1–30 of 30)`)]);
    assert.equal(
      text,
      [
        '  ✓ 31 lines (3 ms)',
        ...numbered(OUTPUT_PREVIEW_LINES).map((line) => `    ${line}`),
        `    … ${30 - OUTPUT_PREVIEW_LINES} more lines (--verbose shows all)`,
        '    (a.txt: lines 1–30 of 30)',
        '',
      ].join('\n'),
    );
  });

  it("shows the end of a task's output under its exit code, failed or not", () => {
    const output = `Task 'npm: test' finished with exit code 1 after 0.5 s.\n--- output ---\n${numbered(40).join('\n')}\n# fail 2\n`;
    const text = render([finished('run_task', output, { ok: false })]);
    assert.equal(
      text,
      [
        "  ✗ Task 'npm: test' finished with exit code 1 after 0.5 s. (3 ms)",
        `    … ${41 - OUTPUT_PREVIEW_LINES} earlier lines (--verbose shows all)`,
        ...numbered(40)
          .slice(-(OUTPUT_PREVIEW_LINES - 1))
          .map((line) => `    ${line}`),
        '    # fail 2',
        '',
      ].join('\n'),
    );
    const cut = `Task 't' finished with exit code 0 after 1.0 s.\n--- last 3 lines of output ---\na\nb\nc`;
    assert.equal(
      render([finished('run_task', cut)]),
      "  ✓ Task 't' finished with exit code 0 after 1.0 s. (3 ms)\n    a\n    b\n    c\n",
    );
  });

  it('--verbose shows every line, however long', () => {
    const long = 'x'.repeat(500);
    const text = render([finished('read_file', [...numbered(30), long].join('\n'))], { verbose: true });
    assert.ok(numbered(30).every((line) => text.includes(`\n    ${line}\n`)));
    assert.ok(text.includes(`    ${long}\n`));
    assert.doesNotMatch(text, /--verbose shows all/);
  });

  it('cuts a very long line, drops escape sequences and control characters, and dims on a colour terminal', () => {
    const plain = render([finished('read_file', `${'y'.repeat(500)}\n\u001b[31mred\u001b[0m\u0007 bell\r`)]);
    assert.ok(plain.includes(`    ${'y'.repeat(200)}…\n`), plain);
    assert.ok(plain.includes('    red bell\n'), JSON.stringify(plain));
    const color = render([finished('read_file', 'one\ntwo')], { color: true });
    assert.ok(color.includes('\u001b[2m    one\u001b[0m\n\u001b[2m    two\u001b[0m\n'), JSON.stringify(color));
  });

  it("keeps an edit's diff as it was, and shows a failed call's reason under it", () => {
    const diff = 'M a.txt (+1 -1)\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b';
    assert.equal(
      render([finished('apply_patch', diff)]),
      '  ✓ M a.txt (+1 -1) (3 ms)\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n',
    );
    assert.equal(
      render([finished('edit_file', 'old_string not found in a.txt.\nThe closest lines are:\n  a', { ok: false })]),
      '  ✗ old_string not found in a.txt. (3 ms)\n    The closest lines are:\n      a\n',
    );
  });

  it('counts declined calls in the summary line, and shows no output for them', () => {
    const declined = finished('run_task', 'The user declined this run_task call; nothing was changed.', {
      ok: false,
      declined: true,
    });
    const text = render([declined, finished('apply_patch', 'The user declined.', { ok: false, declined: true }), done]);
    assert.match(
      text,
      /^ {2}✗ declined The user declined this run_task call; nothing was changed\. \(3 ms\)\n {2}✗ declined/,
    );
    assert.match(text, /\ndone: the model answered · 2 turns · 3 tool calls · 2 calls declined · /);
    assert.match(render([declined, done]), / · 3 tool calls · 1 call declined · /);
    assert.doesNotMatch(render([done]), /declined/);
  });
});

describe('cli: exec renderer, what only real servers send', () => {
  it('dims a progress note (phase: commentary) and prints the answer as it is', () => {
    const events: AgentEvent[] = [
      { type: 'text_delta', turn: 1, itemId: 'm1', delta: 'Looking first.', phase: 'commentary' },
      { type: 'text_delta', turn: 1, itemId: 'm2', delta: '\nDone.', phase: 'final_answer' },
    ];
    assert.equal(render(events, { color: true }), '\u001b[2mLooking first.\u001b[0m\nDone.');
  });

  it('shows a tool the server ran itself as one line', () => {
    const events: AgentEvent[] = [
      { type: 'hosted_call', turn: 1, itemType: 'web_search_call', summary: 'search weather in Paris' },
    ];
    assert.equal(render(events), '▸ web_search_call search weather in Paris\n');
  });

  it('heads each reasoning item once, ends its line before the answer, and puts the run’s notes on stderr', () => {
    let stdout = '';
    let stderr = '';
    const renderer = new ExecRenderer({
      stdout: (chunk) => (stdout += chunk),
      stderr: (chunk) => (stderr += `[${chunk}]`),
      color: false,
    });
    const events: AgentEvent[] = [
      { type: 'reasoning_delta', turn: 1, itemId: 'r1', delta: 'Read the ' },
      { type: 'reasoning_delta', turn: 1, itemId: 'r1', delta: 'test.' },
      { type: 'reasoning_delta', turn: 1, itemId: 'r2', delta: 'Then the code.' },
      { type: 'text_delta', turn: 1, itemId: 'm1', delta: 'Half an answer' },
      { type: 'output_discarded', turn: 1, reason: 'the stream broke' },
      { type: 'transport', state: 'reconnecting', transport: 'ws', attempt: 1, maxAttempts: 3, reason: 'reset' },
      { type: 'transport', state: 'warm', transport: 'ws' },
      { type: 'transport', state: 'http_fallback', transport: 'http', reason: 'no upgrade' },
      { type: 'retry', turn: 1, attempt: 1, reason: 'quick', delayMs: 999, fullContext: false },
      { type: 'retry', turn: 1, attempt: 2, reason: 'rate limited', delayMs: 2500, fullContext: true },
    ];
    for (const event of events) renderer.handle(event);
    assert.equal(stdout, 'thinking: Read the test.\nthinking: Then the code.\nHalf an answer\n');
    assert.equal(
      stderr,
      [
        '[(discarded a partial answer: the stream broke)\n]',
        '[(reconnecting 1/3: reset)\n]',
        '[(using HTTP from now on: WebSocket mode kept failing — no upgrade)\n]',
        '[(retrying in 2.5 s: rate limited)\n]',
      ].join(''),
    );
  });
});

describe('cli: exec renderer, a stop’s error line', () => {
  // The agent states the fault; the terminal adds what fixes it here, and nothing of VS Code's.
  const stopped = (code: string, message: string): string =>
    render([
      { type: 'error', code, message },
      { type: 'done', status: 'failed', reason: message, code, turns: 1, toolCalls: 0, wallMs: 10 },
    ]);
  const REFUSED = 'The endpoint refused the credentials: could not connect (HTTP 401): the upgrade was refused.';

  it('a refused key names OPENAI_API_KEY, and the summary keeps the reason alone', () => {
    const [error, summary] = stopped('auth', REFUSED).split('\n');
    assert.equal(
      error,
      `error: ${REFUSED} Set OPENAI_API_KEY to a key this endpoint accepts (or pass its header with --header).`,
    );
    assert.match(summary ?? '', /^failed: The endpoint refused the credentials: [^·]*\. · 1 turn · /);
    assert.doesNotMatch(summary ?? '', /OPENAI_API_KEY/, 'said once, on the error line');
  });

  it('each stop code gets its flag, another none', () => {
    const firstLine = (code: string) => stopped(code, 'The fault.').split('\n')[0];
    assert.equal(firstLine('unreachable'), 'error: The fault. Check the URL given to --endpoint.');
    assert.equal(firstLine('websocket_unsupported'), 'error: The fault. Use --transport http or auto.');
    assert.equal(firstLine('model_not_found'), 'error: The fault. Choose another with --model.');
    assert.equal(firstLine('invalid_prompt'), 'error: The fault.');
    for (const code of ['auth', 'unreachable', 'websocket_unsupported', 'model_not_found'])
      assert.doesNotMatch(stopped(code, 'The fault.'), /VS Code|Set API Key…|Select Endpoint…|loopwire\.[a-z]/);
  });
});

// The model's answer may repeat what a repository holds, and a notice carries a hook's reason or a file's name:
// their escape sequences reached the terminal (an OSC 52 one sets the clipboard, CSI ones redraw).
describe('cli: exec renderer, a stranger’s control characters', () => {
  it('drops them from the answer, the reasoning and the notices; keeps the words and line breaks', () => {
    const text = render([
      { type: 'text_delta', turn: 1, itemId: 'm1', delta: 'Run\u001b]52;c;Zm9v\u0007 this\u001b[2K\r.\n' },
      { type: 'notice', code: 'hook', message: 'hook PreToolUse denied: no\u001b[31m way' },
    ] as AgentEvent[]);
    assert.equal(text, 'Run52;c;Zm9v this.\n(hook PreToolUse denied: no way)\n');
  });
});
