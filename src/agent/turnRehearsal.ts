import type { AnyTool, CallItem } from '../protocol';
import type { ToolContext, ToolRegistry } from '../tools';
import { REHEARSED_READ, readArguments, rehearseRead } from '../tools/readRehearsal';
import type { AgentEventSink } from './events';
import { callFolders, nestedCandidates } from './instructions/nestedInstructions';
import { ResponseAssembler } from './transport/responseAssembler';
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
  /**
   * The tools offered, which a server echoes in every terminal event (the warm-up's too): their schemas are
   * the biggest part of reading one, compiled on the first read (~5 ms cold), between the server's answer and
   * the client's next request.
   */
  toolSpecs?: readonly AnyTool[];
}

const ignore: AgentEventSink = () => undefined;

/** A response as the stream brings it: one call of `name` with `args`, then a short message, then its end. */
export function rehearsalEvents(name: string, args: string, tools: readonly AnyTool[] = []): unknown[] {
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
  const output = [call, message];
  const response = { id: 'resp_rehearsal', object: 'response', status: 'completed', output, usage, tools };
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
  for (const event of rehearsalEvents(REHEARSED_READ, readArguments('README.md'), parts.toolSpecs)) {
    const step = assembler.accept(event);
    if (step.kind === 'done') calls = callsIn(step.output).length;
  }
  for (const name of parts.registry.names) parts.registry.get(name)?.args.safeParse({});
  return calls;
}

/**
 * The asynchronous part: read_file run as a call runs it (src/tools/readRehearsal.ts), and the nested AGENTS.md
 * lookup each path read goes through. `hot`: the made-up reads that get read_file optimised too (once a
 * process is enough). Never throws: a rehearsal that fails only leaves that part cold.
 */
export async function rehearseTools(parts: RehearsalParts, hot = true): Promise<void> {
  const { registry } = parts;
  const { workspace } = parts.tools;
  await rehearseRead(
    workspace,
    registry,
    (path) => {
      // A path below the folder: the lookup stats the AGENTS.md a subfolder could have (none is sent anywhere).
      const args = readArguments(`src/${path}`);
      const call: CallItem = {
        type: 'function_call',
        call_id: 'call_rehearsal',
        name: REHEARSED_READ,
        arguments: args,
      };
      nestedCandidates(callFolders(call, registry), [], workspace);
    },
    hot,
  );
}

/** Whether this process has rehearsed: what V8 and zod compile, they compile once for every agent after. */
let compiled = false;
/** The workspaces whose own read and AGENTS.md lookup have run (a window starts an agent per task). */
const warmed = new WeakSet<object>();

/**
 * The rehearsal. Its synchronous part runs before this returns: a caller that opens its socket after it has
 * the warm-up's response read by code already compiled, and nothing of the rehearsal left to wait for between
 * that response and the prompt's request (the thread would be busy with it either way). The compiling is done
 * once a process, the workspace's first read once a workspace: a window's later tasks and inline edits read
 * only the environment item again (cheap once warm). Never rejects.
 */
export function rehearse(parts: RehearsalParts): Promise<void> {
  const first = !compiled;
  compiled = true;
  try {
    if (first) rehearseSync(parts);
    else parts.environment?.();
  } catch {
    // A rehearsal is only ever a head start: what failed here is compiled by the first real turn instead.
  }
  if (warmed.has(parts.tools.workspace)) return Promise.resolve();
  warmed.add(parts.tools.workspace);
  return rehearseTools(parts, first).catch(() => undefined);
}
