import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';
import { launch } from './serverBin';

// What each start of the built bins loads (issue 31): a command's own bundle and nothing else, and the
// tokenizer's ranks only once a text is counted. Recorded by a preload in the real processes; how long the
// starts take is the bench's (`npm run bench -- --startup`), never asserted here.

const dist = path.join(repoRoot, 'dist', 'cli');
const loopwire = path.join(dist, 'loopwire.js');
const recorder = path.join(__dirname, 'support', 'loadRecorder.js');
const RANKS = path.join(dist, 'o200k_base.json');

interface LoadRecord {
  required: string[];
  read: string[];
}

/** The bundles of dist/cli/ the process required, by name, sorted. */
const bundlesOf = (record: LoadRecord) =>
  record.required
    .filter((file) => path.dirname(file) === dist)
    .map((file) => path.basename(file))
    .sort();

describe('cli: each start loads only what its command uses', () => {
  const temp = useTempWorkspace({
    'src/greeting.txt': 'hello\n',
    'frames.jsonl': '{"model":"gpt-5.5","input":"hi"}\n',
  });
  let record: string;
  beforeEach(() => (record = temp.path('load-record.json')));

  const readRecord = (): LoadRecord => JSON.parse(fs.readFileSync(record, 'utf8')) as LoadRecord;
  const env = () => ({ ...process.env, NODE_OPTIONS: `--require ${recorder}`, LOOPWIRE_LOAD_RECORD: record });
  async function run(args: string[], stdin = ''): Promise<LoadRecord> {
    const result = await runProcess(process.execPath, [loopwire, ...args], stdin, env());
    assert.equal(result.code, 0, result.stderr);
    return readRecord();
  }

  it('`loopwire --help` requires the dispatcher alone, which holds no command', async () => {
    assert.deepEqual(bundlesOf(await run(['--help'])), ['loopwire.js']);
    const size = fs.statSync(loopwire).size;
    assert.ok(size < 16 * 1024, `dist/cli/loopwire.js is ${Math.round(size / 1024)} KB: what did it bundle?`);
  });

  it('`loopwire apply-patch` requires its own bundle and no other', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/greeting.txt\n@@\n-hello\n+hello, world\n*** End Patch\n';
    const loaded = await run(['apply-patch', '--cwd', temp.dir], patch);
    assert.deepEqual(bundlesOf(loaded), ['applyPatchCommand.js', 'loopwire.js']);
    assert.equal(await temp.read('src/greeting.txt'), 'hello, world\n');
  });

  it('`loopwire validate` and `loopwire tool` require their own bundles and never read the ranks', async () => {
    const validated = await run(['validate', temp.path('frames.jsonl')]);
    assert.deepEqual(bundlesOf(validated), ['loopwire.js', 'validateCommand.js']);
    const tool = await run(['tool', 'read_file', '{"path":"src/greeting.txt"}', '--cwd', temp.dir]);
    assert.deepEqual(bundlesOf(tool), ['loopwire.js', 'toolCommand.js']);
    for (const loaded of [validated, tool]) assert.ok(!loaded.read.includes(RANKS), 'the ranks were read');
  });

  it('`loopwire-server` reads the ranks at its first request, not at its start', async () => {
    const started = await launch(['--port', '0'], {
      NODE_OPTIONS: `--require ${recorder}`,
      LOOPWIRE_LOAD_RECORD: record,
    });
    // A request that counts nothing, answered once the server waits for its signals (a SIGTERM the moment the
    // URL is read could come before the handler, and end the process without its record).
    assert.equal((await fetch(`${started.url}/models`)).status, 200);
    started.child.kill('SIGTERM');
    await started.exited;
    assert.ok(!readRecord().read.includes(RANKS), 'loopwire-server read the ranks before any request');

    const server = await launch(['--port', '0'], {
      NODE_OPTIONS: `--require ${recorder}`,
      LOOPWIRE_LOAD_RECORD: record,
    });
    const response = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5.5', input: 'Say hello in five words.', stream: false }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const body = (await response.json()) as { usage?: { input_tokens?: number; output_tokens?: number } };
    server.child.kill('SIGTERM');
    await server.exited;
    assert.ok((body.usage?.input_tokens ?? 0) > 0 && (body.usage?.output_tokens ?? 0) > 0, JSON.stringify(body.usage));
    assert.deepEqual(
      readRecord().read.filter((file) => file === RANKS),
      [RANKS],
      'the ranks are read once, at the first count',
    );
  });
});
