import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AnyInputItem, OutputItem } from '../../../../src/protocol';
import { DEFAULT_SCENARIOS } from '../../../../src/server';
import { ScriptedModel } from '../../../../src/server/scriptedModel';
import { ReadLedger, type ToolContext, type ToolResult, runToolCall } from '../../../../src/tools';
import { NodeWorkspace } from '../../../../src/workspace/node/nodeWorkspace';
import { repoRoot } from '../../support/runProcess';

// The default scenarios played end to end on a copy of demo/workspace, without the agent loop: the model's
// calls run through the real tools on the Node adapter, and their outputs go back into the next request.
// Shared by defaultScenarios.test.ts (the files, their examples, the demo's task) and everydayScenarios.test.ts.

export const DEMO = path.join(repoRoot, 'demo/workspace');

export interface Played {
  trace: string;
  output: OutputItem[];
  calls: { name: string; args: unknown; result: ToolResult }[];
}

export interface Session {
  root: string;
  context: ToolContext;
  play: (prompt: string | AnyInputItem) => Promise<Played[]>;
}

const made: string[] = [];
after(async () => {
  for (const dir of made.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** A fresh copy of the demo workspace, and a player that answers each of the model's calls until it stops. */
export async function demoSession(): Promise<Session> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-demo-')));
  made.push(base);
  const root = path.join(base, 'workspace');
  await fs.cp(DEMO, root, { recursive: true });
  const context: ToolContext = { workspace: await NodeWorkspace.open(root), reads: new ReadLedger() };
  const model = new ScriptedModel([DEFAULT_SCENARIOS]);
  const play = async (prompt: string | AnyInputItem): Promise<Played[]> => {
    const items: AnyInputItem[] = [
      typeof prompt === 'string' ? { type: 'message', role: 'user', content: prompt } : prompt,
    ];
    const turns: Played[] = [];
    for (let turn = 0; turn < 12; turn++) {
      const { trace, output } = model.respond(items);
      items.push(...(output as AnyInputItem[]));
      const calls: Played['calls'] = [];
      for (const item of output) {
        if (item.type === 'function_call') {
          const result = await runToolCall({ kind: 'function', name: item.name, arguments: item.arguments }, context);
          calls.push({ name: item.name, args: JSON.parse(item.arguments), result });
          items.push({ type: 'function_call_output', call_id: item.call_id, output: result.output });
        } else if (item.type === 'custom_tool_call') {
          const result = await runToolCall({ kind: 'custom', name: item.name, input: item.input }, context);
          calls.push({ name: item.name, args: item.input, result });
          items.push({ type: 'custom_tool_call_output', call_id: item.call_id, output: result.output });
        }
      }
      turns.push({ trace, output, calls });
      if (calls.length === 0) return turns;
    }
    throw new Error(`'${JSON.stringify(prompt)}' did not end within 12 responses`);
  };
  return { root, context, play };
}

export function messageOf(turn: Played | undefined): string {
  const item = turn?.output.find((entry) => entry.type === 'message');
  assert.ok(item?.type === 'message', 'the turn ends with a message');
  return item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
}
