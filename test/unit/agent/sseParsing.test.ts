import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exchangeHttp } from '../../../src/agent/transport/httpExchange';
import { ResponseAssembler } from '../../../src/agent/transport/responseAssembler';

// The HTTP transport reads server-sent events as the SSE spec does (eventsource-parser): lines may end in
// CR LF, LF or a lone CR; comments and `event:` lines are not data; an event may arrive in pieces; and the
// last event is read even where the body ends without its blank line.

const response = { id: 'resp_sse', object: 'response', status: 'completed', output: [], model: 'gpt-test' };
const events = [
  { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress' } },
  { type: 'response.completed', sequence_number: 1, response },
];

/** A server that answers with `chunks`, each written on its own, a moment apart. */
async function serving(chunks: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, answer) => {
    answer.writeHead(200, { 'content-type': 'text/event-stream' });
    const next = (i: number) => {
      if (i === chunks.length) {
        answer.end();
        return;
      }
      answer.write(chunks[i]);
      setTimeout(() => next(i + 1), 5);
    };
    next(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/responses`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function exchange(chunks: string[]) {
  const server = await serving(chunks);
  try {
    const assembler = new ResponseAssembler(1, () => undefined);
    const request = {
      url: server.url,
      body: '{}',
      headers: {},
      signal: new AbortController().signal,
      idleTimeoutMs: 5000,
    };
    return (await exchangeHttp(request, assembler)).step;
  } finally {
    await server.close();
  }
}

describe('HTTP transport: server-sent events as the spec reads them', () => {
  it('reads lone-CR line ends, comments and event: lines, and an event split across chunks', async () => {
    const [created, completed] = events.map((event) => JSON.stringify(event));
    // Every line ends in a lone CR, as some proxies write them; a comment and event: lines among them.
    const body = `: keep-alive\revent: response.created\rdata: ${created}\r\revent: response.completed\rdata: ${completed}\r\r`;
    const cut = body.indexOf('response.completed') + 5;
    const step = await exchange([body.slice(0, cut), body.slice(cut)]);
    assert.equal(step.kind, 'done', JSON.stringify(step));
    assert.equal(step.kind === 'done' && step.response.id, 'resp_sse');
  });

  it('reads a data: field over two lines as one event, and the last event without its blank line', async () => {
    const created = JSON.stringify(events[0]);
    const completed = JSON.stringify(events[1], null, 1).split('\n');
    const body = `data: ${created}\n\n${completed.map((line) => `data: ${line}`).join('\n')}`;
    const step = await exchange([body]);
    assert.equal(step.kind === 'done' && step.response.id, 'resp_sse', JSON.stringify(step));
  });
});
