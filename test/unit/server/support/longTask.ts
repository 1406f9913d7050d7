import type OpenAI from 'openai';
import { ScenarioFile } from '../../../../src/server';
import type { SdkSocket } from './sdkSocket';

// A long agent task for the context-window and compaction suites: nine file reads, then a closing message —
// ten steps whose tool outputs (about 700 tokens each) outgrow a small window unless the context is compacted.

export const LONG_PROMPT = 'read the ten files';
export const LONG_STEPS = 10;

export const LONG_TASK = ScenarioFile.parse({
  scenarios: [
    {
      name: 'long task',
      match: `^${LONG_PROMPT}$`,
      steps: [
        ...Array.from({ length: LONG_STEPS - 1 }, (_, i) => ({
          output: [{ type: 'function_call', name: 'read_file', arguments: { path: `src/part${i + 1}.ts` } }],
        })),
        { output: [{ type: 'message', text: 'Read every file.' }] },
      ],
    },
  ],
});

/** The text of file `n`: about 700 tokens, the same every time (so compactions are comparable). */
export function fileText(n: number, lines = 36): string {
  return Array.from(
    { length: lines },
    (_, i) => `export const value${n}_${i} = compute(${n}, ${i}); // part ${n}`,
  ).join('\n');
}

/** Compaction past 2,000 tokens: a window of 3,000 leaves room for one more file read after the threshold. */
export const WINDOW = 3000;
export const COMPACT = [{ type: 'compaction', compact_threshold: 2000 }];

type Response = OpenAI.Responses.Response;
type InputItem = OpenAI.Responses.ResponseInputItem;

/** What one turn of the task sends besides its input: model, store, context_management… */
export type TurnFields = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'input' | 'previous_response_id'>;

/** The tool output answering a response's call (file n), or undefined when it called nothing. */
function answer(response: Response, n: number): InputItem | undefined {
  const call = response.output.find((item) => item.type === 'function_call');
  return call && { type: 'function_call_output', call_id: call.call_id, output: fileText(n) };
}

/**
 * Plays the task over one SDK socket, chaining each turn (only the new tool output is sent), until the model
 * calls nothing more; returns every response.
 */
export async function playOverSocket(socket: SdkSocket, fields: TurnFields): Promise<Response[]> {
  const responses = [await socket.turn({ ...fields, input: LONG_PROMPT })];
  for (let n = 1; n <= LONG_STEPS + 2; n++) {
    const last = responses.at(-1) as Response;
    const output = answer(last, n);
    if (!output) return responses;
    responses.push(await socket.turn({ ...fields, previous_response_id: last.id, input: [output] }));
  }
  throw new Error('the task did not end');
}

/**
 * Plays the task over HTTP, stateless: each request sends the history so far (every output item, compactions
 * included, as received) — or, `pruned`, only what follows the latest compaction item, as the API's guide
 * allows.
 */
export async function playOverHttp(client: OpenAI, fields: TurnFields, pruned = false): Promise<Response[]> {
  const history: InputItem[] = [{ role: 'user', content: LONG_PROMPT }];
  const responses: Response[] = [];
  for (let n = 1; n <= LONG_STEPS + 2; n++) {
    const start = pruned
      ? Math.max(
          0,
          history.findLastIndex((item) => item.type === 'compaction'),
        )
      : 0;
    const response = await client.responses.create({ ...fields, stream: false, input: history.slice(start) });
    responses.push(response);
    const output = answer(response, n);
    if (!output) return responses;
    history.push(...(response.output as InputItem[]), output);
  }
  throw new Error('the task did not end');
}
