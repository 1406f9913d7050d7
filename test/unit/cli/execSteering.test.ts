import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shellWord } from '../../../src/mcp/mcpConsent';
import { type ProcessResult, repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec` on a terminal takes what the user types while the task runs (issue 38, item 4): Enter steers
// the task, Tab queues the line as the next prompt, and while an approval question is open what is typed
// answers it. The built bin runs on a real pseudo-terminal (util-linux's `script`), on the embedded backend,
// with a scenario whose first step is a task that sleeps: a line typed then reaches it mid-task.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const call = (cmd: string) => ({ output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd } }] });
const say = (text: string) => ({ output: [{ type: 'message', text }] });
const SCENARIOS = {
  scenarios: [
    { name: 'slow', match: '^slow task', steps: [call('sleep 1'), say('slow task done')] },
    { name: 'touch', match: '^touch task', steps: [call('touch made-by-task'), say('touch task done')] },
    { name: 'steer', match: '^say steered', steps: [say('the steer answered')] },
    { name: 'queued', match: '^say queued', steps: [say('the queued prompt answered')] },
  ],
};

/** Keys typed once the output so far matches `when`. */
interface Typing {
  when: RegExp;
  keys: string;
}

/** The bin on a pseudo-terminal, typing each of `typing` in turn as its moment comes: stdout is everything shown. */
function execOnTerminal(args: string[], typing: Typing[], cwd: string): Promise<ProcessResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  const line = [process.execPath, bin, 'exec', ...args].map(shellWord).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd, env });
    let stdout = '';
    const waiting = [...typing];
    // A run that never gets its moment would hang the suite: it is ended, and the assertions say what was shown.
    const guard = setTimeout(() => child.kill(), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      while (waiting[0] && waiting[0].when.test(stdout)) child.stdin.write(waiting.shift()?.keys ?? '');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr: '' });
    });
  });
}

/** Where each of `texts` first appears in `output`, which must hold them all in this order. */
function assertInOrder(output: string, texts: string[]): void {
  let from = 0;
  for (const text of texts) {
    const at = output.indexOf(text, from);
    assert.ok(at >= 0, `'${text}' after offset ${from} in:\n${output}`);
    from = at + text.length;
  }
}

const HINT = /Type and Enter to steer the task; Tab queues it as the next prompt\./;

describe('cli: loopwire exec steers from the terminal', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    { 'scenarios.json': JSON.stringify(SCENARIOS), 'work/README.md': '# steering\n' },
    { prefix: 'exec-steering' },
  );
  const args = (approve: string, prompt: string) => [
    '--approve',
    approve,
    '--scenario',
    temp.path('scenarios.json'),
    '--sessions-dir',
    temp.path('sessions'),
    '--workspace',
    temp.path('work'),
    prompt,
  ];
  const sessionText = () =>
    fs
      .readdirSync(temp.path('sessions'))
      .map((file) => fs.readFileSync(path.join(temp.path('sessions'), file), 'utf8'))
      .join('\n');

  it('Enter steers the running task; Tab queues a line that runs after it, on the same conversation', async () => {
    const typing = [
      { when: HINT, keys: 'say steered\r' },
      { when: /steer › say steered\r?\n/, keys: 'say queued\t' },
    ];
    const result = await execOnTerminal(args('all', 'slow task'), typing, temp.dir);
    assert.equal(result.code, 0, result.stdout);
    assertInOrder(result.stdout, [
      'exec_command',
      '› steered: say steered',
      'the steer answered',
      'done:',
      '› next prompt: say queued',
      'the queued prompt answered',
      'done:',
    ]);
    assert.doesNotMatch(result.stdout, /slow task done|not sent/);
    // One conversation: the prompt, the steer after the tool's output, the queued prompt after the answer.
    assertInOrder(sessionText(), ['"slow task"', '"say steered"', 'the steer answered', '"say queued"']);
  });

  it('what is typed while an approval question is open answers it, and steers nothing', async () => {
    const typing = [{ when: /Allow exec_command touch made-by-task \(task\)\?/, keys: 'y\r' }];
    const result = await execOnTerminal(args('ask', 'touch task'), typing, temp.dir);
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, HINT);
    assert.ok(fs.existsSync(temp.path('work/made-by-task')), 'the y allowed the command');
    assertInOrder(result.stdout, ['[y]es / [n]o / [a]ll', 'touch task done', 'done:']);
    assert.doesNotMatch(result.stdout, /steered|steer › |next ›/);
  });

  it('Ctrl+C still stops the task, and a line queued for after it is said not sent', async () => {
    const typing = [
      { when: HINT, keys: 'say queued\t' },
      { when: /next › say queued\r?\n/, keys: '\u0003' },
    ];
    const result = await execOnTerminal(args('all', 'slow task'), typing, temp.dir);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /\(not sent, the task did not complete: say queued\)/);
    assert.doesNotMatch(result.stdout, /the queued prompt answered/);
  });

  it('without a terminal stdin is not read: a piped line steers nothing, and no keys are offered', async () => {
    const result = await runProcess(process.execPath, [bin, 'exec', ...args('all', 'slow task')], 'say steered\n');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /slow task done/);
    assert.doesNotMatch(result.stdout + result.stderr, /steered|Type and Enter/);
  });
});
