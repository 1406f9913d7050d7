// The server's own time per turn (decode + validate + load + render/tokenize + cache lookups), for an HTTP
// turn that carries the full context and for a chained WebSocket turn that carries one new item, at three
// history sizes. Simulated inference (prefill, output pace) is excluded: it is the same for both.
// Run: npx tsx test/bench/serverTurn.ts [--repeats N]
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import WebSocket from 'ws';
import { type TurnRecord, startServer } from '../../src/server';

const repeats = Number(process.argv[process.argv.indexOf('--repeats') + 1]) || 15;
const sizes = [1_000, 30_000, 100_000];

/** Deterministic, varied source text (a real tokenizer's merge cache must not make repetition free). */
function sourceLines(seed: number, count: number): string {
  let state = seed * 2654435761 + 1;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = [
    'parse',
    'Node',
    'token',
    'input',
    'scope',
    'emit',
    'visit',
    'range',
    'source',
    'buffer',
    'offset',
    'kind',
  ];
  const word = () => `${words[Math.floor(random() * words.length)]}${Math.floor(random() * 1000)}`;
  return Array.from(
    { length: count },
    () => `  const ${word()} = ${word()}.${word()}(${word()}, ${Math.floor(random() * 1e6)});`,
  ).join('\n');
}

/** A history of about `tokens` tokens: a prompt, then tool calls with file-sized outputs (~40 lines each). */
function history(tokens: number): unknown[] {
  const items: unknown[] = [{ role: 'user', content: 'Refactor the parser and run the tests.' }];
  for (let i = 0, total = 10; total < tokens; i++) {
    const output = `src/f${i}.ts\n${sourceLines(i, 40)}`;
    total += countTokens(output) + 20;
    items.push({
      type: 'function_call',
      call_id: `call_${i}`,
      name: 'read_file',
      arguments: JSON.stringify({ path: `src/f${i}.ts` }),
    });
    items.push({ type: 'function_call_output', call_id: `call_${i}`, output });
  }
  return items;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function serverMs(record: TurnRecord): number {
  return record.parseMs + record.loadMs + record.workMs;
}

async function main(): Promise<void> {
  const records: TurnRecord[] = [];
  const server = await startServer({ tps: 1_000_000, prefillUsPerToken: 0, observe: (record) => records.push(record) });
  const last = () => records[records.length - 1] as TurnRecord;
  const rows: Record<string, unknown>[] = [];
  try {
    for (const size of sizes) {
      const input = history(size);
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/responses`);
      await new Promise((resolve) => socket.once('open', resolve));
      const next = () =>
        new Promise<Record<string, unknown>>((resolve) => {
          const onMessage = (data: Buffer) => {
            const event = JSON.parse(data.toString()) as { type: string; response?: Record<string, unknown> };
            if (event.type === 'response.completed') {
              socket.off('message', onMessage);
              resolve(event.response ?? {});
            }
          };
          socket.on('message', onMessage);
        });
      socket.send(JSON.stringify({ type: 'response.create', model: 'm', store: false, input }));
      let previous = (await next()).id as string;
      const http: number[] = [];
      const ws: number[] = [];
      let tokens = 0;
      let cached = 0;
      for (let r = 0; r < repeats; r++) {
        // Interleaved, so that both modes see the same machine moment.
        const reply = await fetch(`${server.url}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', store: false, input }),
        });
        await reply.text();
        http.push(serverMs(last()));
        tokens = last().inputTokens;
        socket.send(
          JSON.stringify({
            type: 'response.create',
            model: 'm',
            store: false,
            previous_response_id: previous,
            input: [{ role: 'user', content: `Turn ${r}: go on.` }],
          }),
        );
        previous = (await next()).id as string;
        ws.push(serverMs(last()));
        cached = last().cachedTokens;
      }
      socket.close();
      rows.push({
        history_tokens: tokens,
        http_full_ms: Number(median(http).toFixed(2)),
        ws_chained_ms: Number(median(ws).toFixed(2)),
        ratio: Number((median(http) / median(ws)).toFixed(1)),
        ws_cached_tokens: cached,
      });
    }
  } finally {
    await server.close();
  }
  console.table(rows);
  console.log(JSON.stringify({ repeats, rows }));
}

void main();
