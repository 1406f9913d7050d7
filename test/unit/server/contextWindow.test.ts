import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import OpenAI from 'openai';
import { HttpErrorBody, WsErrorEvent, contextLengthExceeded } from '../../../src/protocol';
import { DEFAULTS, startServer } from '../../../src/server';
import { parses } from '../protocol/parses';
import { WsClient, finalResponse, post, useServer } from './support/harness';
import { LONG_PROMPT, LONG_TASK, WINDOW, fileText } from './support/longTask';
import { SdkSocket } from './support/sdkSocket';
import { repoRoot } from '../support/runProcess';

// The context window (docs/backend.md, "The context window"): a request whose rendered input is larger is
// refused with the API's context_length_exceeded, over both transports, and the socket serves on.

const EXCEEDED = contextLengthExceeded().error;
const tooLong = `${LONG_PROMPT}\n${fileText(1)}\n${fileText(2)}\n${fileText(3)}\n${fileText(4)}\n${fileText(5)}`;

describe('the context window', () => {
  const harness = useServer({ scenarios: [LONG_TASK], contextWindow: WINDOW });

  it('defaults to the GPT-5 family input window, 272,000 tokens; the option must be positive', async () => {
    assert.equal(DEFAULTS.contextWindow, 272_000);
    await assert.rejects(startServer({ contextWindow: 0 }), RangeError);
  });

  it('over HTTP: 400 with the API error body, before any stream; the SDK raises BadRequestError', async () => {
    for (const stream of [false, true]) {
      const answer = await post(`${harness.url}/responses`, { model: 'gpt-5.5', input: tooLong, stream });
      assert.equal(answer.status, 400);
      assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      assert.deepEqual(parses(HttpErrorBody, JSON.parse(answer.text)).error, {
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        param: 'input',
      });
    }
    const client = new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });
    await assert.rejects(client.responses.create({ model: 'gpt-5.5', input: tooLong }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.equal(error.code, 'context_length_exceeded');
      assert.equal(error.param, 'input');
      return true;
    });
    const refused = harness.turns.at(-1);
    assert.equal(refused?.outcome, 'refused');
    assert.ok((refused?.inputTokens ?? 0) > WINDOW, 'the record says how large the input was');
    assert.equal(
      (await client.responses.create({ model: 'gpt-5.5', input: LONG_PROMPT })).status,
      'completed',
      'an input within the window is served',
    );
  });

  it('over WebSocket: one nested error event, then the same socket serves the next request', async () => {
    const socket = await WsClient.open(harness.url);
    try {
      const frames = await socket.turn({ model: 'gpt-5.5', store: false, input: tooLong });
      assert.equal(frames.length, 1);
      assert.deepEqual(parses(WsErrorEvent, frames[0]), { type: 'error', status: 400, error: EXCEEDED });
      const served = finalResponse(await socket.turn({ model: 'gpt-5.5', store: false, input: LONG_PROMPT }));
      assert.equal(served.status, 'completed');
      assert.equal(socket.closeCode, undefined);
    } finally {
      socket.close();
    }
  });

  it('a chained turn that outgrows the window is refused; the SDK socket hears the message and carries on', async () => {
    const socket = new SdkSocket(harness.url);
    try {
      let response = await socket.turn({ model: 'gpt-5.5', store: false, input: LONG_PROMPT });
      const sizes: number[] = [];
      let refused: unknown;
      for (let n = 1; n <= 9 && refused === undefined; n++) {
        const call = response.output[0];
        assert.ok(call?.type === 'function_call');
        const next = {
          model: 'gpt-5.5',
          store: false,
          previous_response_id: response.id,
          input: [{ type: 'function_call_output' as const, call_id: call.call_id, output: fileText(n) }],
        };
        try {
          response = await socket.turn(next);
          sizes.push(response.usage?.input_tokens ?? 0);
        } catch (error) {
          refused = error;
        }
      }
      assert.ok(refused instanceof Error, `refused after ${sizes.join(', ')} tokens`);
      assert.equal(refused.message, EXCEEDED.message);
      assert.ok(sizes.every((size) => size <= WINDOW));
      assert.equal((await socket.turn({ model: 'gpt-5.5', store: false, input: LONG_PROMPT })).status, 'completed');
    } finally {
      socket.close();
    }
  });

  it('counts instructions and tools too: the rendered input, not just the items', async () => {
    const answer = await post(`${harness.url}/responses`, {
      model: 'gpt-5.5',
      instructions: tooLong,
      input: LONG_PROMPT,
    });
    assert.equal(answer.status, 400);
    assert.equal(parses(HttpErrorBody, JSON.parse(answer.text)).error.code, 'context_length_exceeded');
  });
});

describe('loopwire-server --context-window', function () {
  this.timeout(40_000);

  /** Runs the CLI from source with `args`; resolves with its base URL and a stop function, or its exit. */
  function launch(args: string[]): Promise<{ url: string; stop: () => Promise<void> } | { code: number | null }> {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/cli/loopwireServer.ts', ...args], {
      cwd: repoRoot,
    });
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return new Promise((resolve) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const end = stdout.indexOf('\n');
        if (end >= 0)
          resolve({
            url: stdout.slice(0, end),
            stop: async () => {
              child.kill('SIGTERM');
              await exited;
            },
          });
      });
      void exited.then((code) => resolve({ code }));
    });
  }

  it('refuses an input over N tokens; the first stdout line is still the base URL; 0 is a usage error', async () => {
    const running = await launch(['--context-window', '50', '--no-default-scenarios']);
    assert.ok('url' in running, 'the server started');
    try {
      assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const small = await post(`${running.url}/responses`, { model: 'm', input: 'hello' });
      assert.equal(small.status, 200);
      const large = await post(`${running.url}/responses`, { model: 'm', input: 'word '.repeat(60) });
      assert.equal(large.status, 400);
      assert.equal(parses(HttpErrorBody, JSON.parse(large.text)).error.code, 'context_length_exceeded');
    } finally {
      await running.stop();
    }
    assert.deepEqual(await launch(['--context-window', '0']), { code: 2 });
    assert.deepEqual(await launch(['--context-window', '1.5']), { code: 2 });
  });
});
