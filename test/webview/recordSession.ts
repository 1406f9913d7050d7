import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../src/agent';
import { type ScenarioFile, prepareTokenizer, startServer } from '../../src/server';
import { ReadLedger, toolsFor } from '../../src/tools';
import { NodeWorkspace } from '../../src/workspace/node/nodeWorkspace';

// An event stream recorded from the real agent: the bundled server plays a scenario over a real WebSocket
// and the agent runs its real tools on a real folder. The panel's tests replay it into the host's ChatModel,
// so what the webview shows is what a real turn would send it, not a hand-written imitation.

export const PROMPT = 'Tidy up the inventory module';
export const EDITED = 'src/inventory.ts';

/** The file the patch edits: about 60 lines, so its hunks sit apart with context between them. */
export const ORIGINAL = `// The shop's inventory: items, stock levels and reorder rules.
export interface Item {
  sku: string;
  name: string;
  price: number;
  stock: number;
}

const items = new Map<string, Item>();

export function addItem(item: Item): void {
  items.set(item.sku, item);
}

export function removeItem(sku: string): boolean {
  return items.delete(sku);
}

export function findItem(sku: string): Item | undefined {
  return items.get(sku);
}

export function restock(sku: string, count: number): void {
  const item = items.get(sku);
  if (!item) return;
  item.stock = item.stock + count;
}

export function sell(sku: string, count: number): boolean {
  const item = items.get(sku);
  if (!item) return false;
  item.stock -= count;
  return true;
}

export function totalValue(): number {
  let total = 0;
  for (const item of items.values()) total += item.price * item.stock;
  return total;
}

export function lowStock(threshold: number): Item[] {
  const low: Item[] = [];
  for (const item of items.values()) if (item.stock < threshold) low.push(item);
  return low;
}

export function rename(sku: string, name: string): void {
  const item = items.get(sku);
  if (item) item.name = name;
}

export function clear(): void {
  items.clear();
}

export function count(): number {
  return items.size;
}
`;

const PATCH = `*** Begin Patch
*** Update File: ${EDITED}
@@ export function restock(sku: string, count: number): void {
   const item = items.get(sku);
-  if (!item) return;
-  item.stock = item.stock + count;
+  if (!item || count <= 0) return;
+  item.stock += count;
 }
@@ export function sell(sku: string, count: number): boolean {
   const item = items.get(sku);
-  if (!item) return false;
+  if (!item || count <= 0 || item.stock < count) return false;
   item.stock -= count;
   return true;
@@ export function lowStock(threshold: number): Item[] {
-  const low: Item[] = [];
-  for (const item of items.values()) if (item.stock < threshold) low.push(item);
-  return low;
+  return [...items.values()].filter((item) => item.stock < threshold);
 }
@@ export function count(): number {
   return items.size;
 }
+
+/** Every item, cheapest first. */
+export function byPrice(): Item[] {
+  return [...items.values()].sort((a, b) => a.price - b.price);
+}
*** End Patch
`;

const ANSWER = `I'll tidy **inventory.ts** in three steps:

1. guard \`restock\` and \`sell\` against bad counts;
2. simplify \`lowStock\`;
3. add a \`byPrice\` helper.

The guard I have in mind:

\`\`\`ts
if (!item || count <= 0) return;
\`\`\`

- no behaviour changes for valid input
- one new export

Reading the file first.`;

const SCENARIO: ScenarioFile = {
  scenarios: [
    {
      name: 'tidy',
      match: 'tidy up the inventory',
      steps: [
        {
          output: [
            { type: 'message', text: ANSWER },
            { type: 'function_call', name: 'read_file', arguments: { path: EDITED } },
          ],
        },
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        {
          output: [
            {
              type: 'message',
              text: 'Done: `restock` and `sell` now refuse bad counts, `lowStock` is one line, and `byPrice` is new.',
            },
          ],
        },
      ],
    },
  ],
};

export interface RecordedSession {
  events: AgentEvent[];
}

async function record(): Promise<RecordedSession> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-record-'));
  const dir = path.join(base, 'ws');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, EDITED), ORIGINAL);
  // Five hundred tokens a second: small deltas, as a real model streams them, in about a second. The pace follows
  // the clock (a late timer sends what is due as one bigger delta), so the tokenizer is built first, and the
  // pace leaves room for a busy machine's late timers: the replay needs the answer in several deltas.
  prepareTokenizer();
  const server = await startServer({ scenarios: [SCENARIO], token: 'record', tps: 500, prefillUsPerToken: 0 });
  const events: AgentEvent[] = [];
  const emit = (event: AgentEvent) => events.push(event);
  const transport = new ModelTransport({ endpoint: server.url, apiKey: 'record', transport: 'ws', emit });
  try {
    const agent = new Agent({
      transport,
      transcript: Transcript.create(
        { id: 'record', createdAt: new Date().toISOString(), workspace: dir, model: 'gpt-5.5' },
        path.join(base, 'session.jsonl'),
      ),
      tools: { workspace: await NodeWorkspace.open(dir), reads: new ReadLedger() },
      model: 'gpt-5.5',
      instructions: 'You are a test agent.',
      toolSpecs: toolsFor('gpt-5.5'),
      approvals: approveAll,
      emit,
    });
    const done = await agent.run(PROMPT);
    if (done.status !== 'completed') throw new Error(`the recorded task did not complete: ${done.reason}`);
    if (fs.readFileSync(path.join(dir, EDITED), 'utf8') === ORIGINAL) throw new Error('the patch was not applied');
  } finally {
    transport.close(false);
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { events };
}

let recorded: Promise<RecordedSession> | undefined;

/** The session, recorded once per process (mocha runs every test file in one). */
export function recordedSession(): Promise<RecordedSession> {
  return (recorded ??= record());
}

/** The workspace as it was before the session, for the host's live diff. */
export const readOriginal = (file: string): Promise<string | undefined> =>
  Promise.resolve(file === EDITED ? ORIGINAL : undefined);
