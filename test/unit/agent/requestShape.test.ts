import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll, modelFields } from '../../../src/agent';
import { ReadLedger, toolsFor } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { tempWorkspace } from '../support/tempWorkspace';

// What shapes each request beyond the conversation: the reasoning and verbosity fields per model, and the
// check that a terminal event belongs to the response this lane is waiting for.

describe('agent: request fields for reasoning and verbosity', () => {
  it("sends the catalogue's defaults, summaries for reasoning models, and nothing to a model that does not reason", () => {
    const gpt = { parallel_tool_calls: true };
    assert.deepEqual(modelFields('gpt-5.5'), {
      reasoning: { effort: 'medium', summary: 'auto' },
      text: { verbosity: 'low' },
      ...gpt,
    });
    assert.deepEqual(modelFields('o4-mini'), { reasoning: { summary: 'auto' }, ...gpt });
    assert.deepEqual(modelFields('gpt-4.1'), gpt, 'models that do not reason get no reasoning field');
  });

  it('sends the effort and verbosity chosen, and no summary when off or when effort is none', () => {
    const gpt = { parallel_tool_calls: true };
    assert.deepEqual(modelFields('gpt-5.5', { reasoningEffort: 'high', verbosity: 'high' }), {
      reasoning: { effort: 'high', summary: 'auto' },
      text: { verbosity: 'high' },
      ...gpt,
    });
    assert.deepEqual(modelFields('gpt-5.5', { reasoningSummary: 'off' }), {
      reasoning: { effort: 'medium' },
      text: { verbosity: 'low' },
      ...gpt,
    });
    assert.deepEqual(modelFields('gpt-5.5', { reasoningEffort: 'none' }), {
      reasoning: { effort: 'none' },
      text: { verbosity: 'low' },
      ...gpt,
    });
    assert.deepEqual(modelFields('gpt-4.1', { reasoningEffort: 'low' }), { reasoning: { effort: 'low' }, ...gpt });
  });
});

describe('agent: the late end of an abandoned response', function () {
  this.timeout(20_000);

  it('is passed over: the resend gets its own answer, and the stray response’s call never runs', async () => {
    // A server that fails the first real turn mid-stream with an `error` event (the client retries on the
    // same socket), then, once the resend arrives, sends the abandoned response's late `response.completed`
    // carrying a call before it answers the resend with a plain message.
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    let generating = 0;
    const bodies: Record<string, unknown>[] = [];
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const body = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
        bodies.push(body);
        const response = (id: string, output: unknown[]) => ({
          id,
          object: 'response',
          created_at: 1,
          status: 'completed',
          model: 'gpt-5.5',
          output,
          usage: null,
        });
        const send = (event: Record<string, unknown>) => socket.send(JSON.stringify(event));
        if (body.generate === false) {
          send({ type: 'response.created', response: { ...response('resp_warm', []), status: 'in_progress' } });
          return send({ type: 'response.completed', response: response('resp_warm', []) });
        }
        generating++;
        const id = `resp_${generating}`;
        if (generating === 2) {
          const stray = {
            id: 'fc_stray',
            type: 'function_call',
            call_id: 'call_stray',
            name: 'write_file',
            arguments: JSON.stringify({ path: 'stray.txt', content: 'should never be written\n' }),
            status: 'completed',
          };
          send({ type: 'response.completed', response: response('resp_1', [stray]) });
        }
        send({ type: 'response.created', response: { ...response(id, []), status: 'in_progress' } });
        if (generating === 1)
          return send({
            type: 'error',
            code: 'server_error',
            message: 'The server had an error while processing your request.',
            param: null,
            sequence_number: 1,
          });
        const message = {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'All done.', annotations: [] }],
        };
        send({ type: 'response.completed', response: response(id, [message]) });
      });
    });
    const { port } = wss.address() as AddressInfo;
    const temp = await tempWorkspace({}, { prefix: 'stray' });
    const dir = temp.dir;
    const events: AgentEvent[] = [];
    const emit = (event: AgentEvent) => events.push(event);
    const transport = new ModelTransport({ endpoint: `http://127.0.0.1:${port}/v1`, transport: 'ws', emit });
    try {
      const workspace = await NodeWorkspace.open(dir);
      const agent = new Agent({
        transport,
        transcript: Transcript.create({
          id: 'stray-test',
          createdAt: new Date().toISOString(),
          workspace: dir,
          model: 'gpt-5.5',
        }),
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'Test.',
        toolSpecs: toolsFor('gpt-5.5'),
        approvals: approveAll,
        emit,
      });
      await agent.start();
      const done = await agent.run('go');
      assert.equal(done.status, 'completed', JSON.stringify(events.filter((e) => e.type === 'error')));
      const retry = events.find((event) => event.type === 'retry');
      assert.ok(retry?.type === 'retry');
      assert.match(retry.reason, /server_error/);
      assert.equal(events.filter((event) => event.type === 'tool_started').length, 0, 'the stray call never ran');
      await assert.rejects(() => fs.access(path.join(dir, 'stray.txt')));
      assert.equal(generating, 2, 'the turn was sent twice: once failed mid-stream, once answered');
      assert.deepEqual(
        events.flatMap((event) => (event.type === 'message' ? [event.text] : [])),
        ['All done.'],
        'the answer is the resend’s own',
      );
    } finally {
      transport.close(false);
      await new Promise((resolve) => wss.close(resolve));
      await temp.remove();
    }
  });
});
