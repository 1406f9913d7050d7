import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import {
  REAL_STREAMS,
  readRecording,
  realStreamFiles,
  recordedTexts,
  startRecordedEndpoint,
} from '../support/recordedEndpoint';
import { repoRoot } from '../support/runProcess';
import { tempWorkspace } from '../support/tempWorkspace';

// `loopwire exec --endpoint URL`, as a new user would try it, against every stream recorded from the live API
// (../shared/real-streams), over both transports: the recorded answer printed, exit 0; the recorded quota
// error printed with what to do, exit 1 at once, after one request.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function exec(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, 'exec', ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

describe('cli: loopwire exec against the streams recorded from the live API', function () {
  this.timeout(30_000);
  const files = realStreamFiles();

  before(function () {
    if (files.length === 0) {
      console.log(`    (no recordings at ${REAL_STREAMS}: the suite has nothing to replay)`);
      this.skip();
    }
  });

  for (const file of files) {
    for (const transport of ['ws', 'http'] as const) {
      it(`${file} --transport ${transport}`, async () => {
        const recording = readRecording(file);
        const endpoint = await startRecordedEndpoint(recording);
        const temp = await tempWorkspace({}, { prefix: 'exec-real' });
        try {
          const run = await exec(
            ['--endpoint', endpoint.url, '--transport', transport, '--approve', 'all', 'What is 2 + 2?'],
            temp.dir,
          );
          const failing = recording.answers.some((answer) => answer.some((event) => event.value.type === 'error'));
          if (failing) {
            assert.equal(run.code, 1, run.stderr);
            assert.match(run.stderr, /insufficient_quota/);
            assert.match(run.stderr, /add credit/);
            assert.equal(endpoint.generating.length, 1, 'one request, never resent');
            // The whole process, Node's own start included: the 8 attempts it took before were 18.5 s.
            assert.ok(run.ms < 3000, `exited after ${Math.round(run.ms)} ms`);
            return;
          }
          assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
          const last = recording.answers[recording.answers.length - 1] ?? [];
          assert.ok(run.stdout.includes(recordedTexts(last).join('')), run.stdout);
          assert.doesNotMatch(run.stderr, /malformed|retry|reconnecting|refused/i);
        } finally {
          await endpoint.close();
          await temp.remove();
        }
      });
    }
  }
});
