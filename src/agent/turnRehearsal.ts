import { hashText } from '../edit';
import type { CallItem } from '../protocol';
import type { Workspace } from '../workspace';
import { ReadLedger, type ToolContext, type ToolRegistry, runToolCall } from '../tools';
import type { AgentEventSink } from './events';
import { callFolders, nestedCandidates } from './nestedInstructions';
import { ResponseAssembler } from './responseAssembler';
import { callsIn } from './toolRunner';

// A task's first turnarounds were its slowest (issue 51: ~70 ms before the prompt's request and ~20 ms after
// the first tool call, against 1–2 ms once warm): what they ran was being run for the first time in the
// process — V8 compiling the functions of the read path, zod compiling each schema on its first parse, ICU
// loading its time-zone data for the environment item. None of that depends on the task, so the agent runs
// it once, on made-up input, while its socket opens and warms up (Agent.start): every piece a turnaround
// uses is then compiled before the first response arrives, and nothing of it is left on the path between
// `response.completed` and the next request. Nothing here writes, emits or keeps anything.

/** What the rehearsal runs on: the agent's own tools and readers. */
export interface RehearsalParts {
  tools: ToolContext;
  registry: ToolRegistry;
  /** The environment item's reader: its first read loads the time zone (a new Intl.DateTimeFormat, ~15 ms cold). */
  environment?: (() => string | undefined) | undefined;
}

/** Files most workspaces have, read (and thrown away) to run read_file's whole path once; none is needed. */
const READ_CANDIDATES = ['README.md', 'package.json', 'AGENTS.md', '.gitignore'];

const ignore: AgentEventSink = () => undefined;

/** A response as the stream brings it: one call of `name` with `args`, then a short message, then its end. */
export function rehearsalEvents(name: string, args: string): unknown[] {
  const call = { type: 'function_call', id: 'fc_rehearsal', call_id: 'call_rehearsal', name, arguments: args };
  const message = {
    type: 'message',
    id: 'msg_rehearsal',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: '.', annotations: [] }],
  };
  const usage = {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  };
  const response = { id: 'resp_rehearsal', object: 'response', status: 'completed', output: [call, message], usage };
  return [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...call, arguments: '' } },
    { type: 'response.function_call_arguments.delta', output_index: 0, item_id: call.id, delta: args },
    { type: 'response.output_item.done', output_index: 0, item: call },
    { type: 'response.output_item.added', output_index: 1, item: { ...message, content: [] } },
    { type: 'response.output_text.delta', output_index: 1, item_id: message.id, content_index: 0, delta: '.' },
    { type: 'response.output_item.done', output_index: 1, item: message },
    { type: 'response.completed', response },
  ];
}

/**
 * The synchronous part: the environment item, a response's events read as a turn reads them (the assembler
 * and the output schemas), its call picked out, every tool's arguments parsed once. Returns the calls found
 * in the made-up response (one: what a test checks to know the rehearsal still reaches the end).
 */
export function rehearseSync(parts: RehearsalParts): number {
  parts.environment?.();
  const assembler = new ResponseAssembler(0, ignore);
  let calls = 0;
  for (const event of rehearsalEvents('read_file', JSON.stringify({ path: READ_CANDIDATES[0] }))) {
    const step = assembler.accept(event);
    if (step.kind === 'done') calls = callsIn(step.output).length;
  }
  for (const name of parts.registry.names) parts.registry.get(name)?.args.safeParse({});
  return calls;
}

/**
 * The asynchronous part: read_file run as a call runs it (arguments, the workspace's read, the answer's
 * text) on the first of a few common files that exists, with a ledger of its own, and the nested AGENTS.md
 * lookup a call's folder goes through. Never throws: a rehearsal that fails only leaves that part cold.
 */
export async function rehearseTools(parts: RehearsalParts): Promise<void> {
  const { registry } = parts;
  if (!registry.get('read_file')) return;
  await rehearseReads(parts.tools.workspace, registry);
  const context: ToolContext = { workspace: parts.tools.workspace, reads: new ReadLedger() };
  for (const path of READ_CANDIDATES) {
    const args = JSON.stringify({ path, end_line: 200 });
    const result = await runToolCall({ kind: 'function', name: 'read_file', arguments: args }, context, registry);
    // A path below the folder: the lookup stats the AGENTS.md a subfolder could have (none is sent anywhere).
    const nested = JSON.stringify({ path: `src/${path}` });
    const call: CallItem = { type: 'function_call', call_id: 'call_rehearsal', name: 'read_file', arguments: nested };
    nestedCandidates(callFolders(call, registry), [], context.workspace);
    if (result.ok) return;
  }
}

/** Reads of a made-up module (~10 KB) the rehearsal repeats: V8 optimises a function only after a few runs. */
const HOT_READS = 4;
const MODULE_TEXT = Array.from({ length: 250 }, (_, i) => `export const value${i} = ${i}; // a line of text\n`).join(
  '',
);

/**
 * read_file's own path — its arguments, its answer's lines and footer, the ledger, the text's hash — run
 * until optimised, on a made-up module served by a stand-in for the workspace's read (the disk's own path is
 * run on the real workspace after). Not the first run alone: the second and third reads of a task were still
 * 1–2 ms slower than the later ones, interpreted.
 */
async function rehearseReads(workspace: Workspace, registry: ToolRegistry): Promise<void> {
  const served: Workspace = Object.create(workspace) as Workspace;
  served.readFile = (path) => Promise.resolve({ path, text: MODULE_TEXT, version: hashText(MODULE_TEXT) });
  const context: ToolContext = { workspace: served, reads: new ReadLedger() };
  const args = JSON.stringify({ path: 'src/module.ts' });
  for (let i = 0; i < HOT_READS; i++)
    await runToolCall({ kind: 'function', name: 'read_file', arguments: args }, context, registry);
}

/**
 * The whole rehearsal, begun once the caller's socket is connecting (a turn of the event loop later, so its
 * handshake and warm-up go on meanwhile). Never rejects.
 */
export async function rehearse(parts: RehearsalParts): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    rehearseSync(parts);
    await rehearseTools(parts);
  } catch {
    // A rehearsal is only ever a head start: what failed here is compiled by the first real turn instead.
  }
}
