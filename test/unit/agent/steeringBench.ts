import {
  Agent,
  type AgentEvent,
  type ApprovalPolicy,
  type ContextPlan,
  SessionTransport,
  Transcript,
  approveAll,
} from '../../../src/agent';
import type { AnyInputItem } from '../../../src/protocol';
import { BUILTIN_TOOLS, ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { AgentBench } from './agentHarness';

// An agent on a model the test names (the harness's is gpt-5.5, which does not steer natively), with a hook
// on its events so that a test can steer at the moment a given event streams.

export interface Steering {
  agent: Agent;
  transport: SessionTransport;
  transcript: Transcript;
  /** Called with each event as it is emitted, in the socket's own tick. */
  hooks: ((event: AgentEvent) => void)[];
}

/** The agent's request fields as given (`extra`), and the window and threshold it compacts at. */
export interface SteeringOptions {
  extra?: Record<string, unknown>;
  context?: ContextPlan;
  /** Who lets writes and tasks run (default: everything runs). */
  approvals?: ApprovalPolicy;
}

export async function steeringAgent(
  bench: AgentBench,
  model: string,
  options: SteeringOptions = {},
): Promise<Steering> {
  const { extra, context, approvals } = options;
  const workspace = await NodeWorkspace.open(bench.dir);
  const hooks: Steering['hooks'] = [];
  const emit = (event: AgentEvent) => {
    bench.events.push(event);
    for (const hook of hooks) hook(event);
  };
  const transport = new SessionTransport({
    endpoint: bench.server.url,
    apiKey: 'test-token',
    transport: 'ws',
    backoffBaseMs: 20,
    backoffMaxMs: 200,
    idleTimeoutMs: 5_000,
    emit,
  });
  const transcript = Transcript.create(
    { id: 'steer', createdAt: new Date().toISOString(), workspace: bench.dir, model },
    bench.transcriptFile,
  );
  const agent = new Agent({
    transport,
    transcript,
    tools: { workspace, reads: new ReadLedger() },
    model,
    instructions: 'You are a test agent.',
    toolSpecs: BUILTIN_TOOLS.offer(model),
    approvals: approvals ?? approveAll,
    ...(extra === undefined ? {} : { extra }),
    ...(context === undefined ? {} : { context }),
    emit,
  });
  return { agent, transport, transcript, hooks };
}

/** Runs `action` once, at the first event `matches` takes. */
export function whenEvent(run: Steering, matches: (event: AgentEvent) => boolean, action: () => void): void {
  let done = false;
  run.hooks.push((event) => {
    if (done || !matches(event)) return;
    done = true;
    action();
  });
}

/** Cuts every socket of the server at once (its admin endpoint), as a network that went away. */
export async function dropSockets(bench: AgentBench): Promise<void> {
  const response = await fetch(`${bench.server.url.replace(/\/v1$/, '')}/admin/drop-connections`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token' },
  });
  if (!response.ok) throw new Error(`admin/drop-connections: ${response.status}`);
}

/** The text of each user message of `items` whose content is a plain string (prompts and steers). */
export function userTexts(items: readonly AnyInputItem[]): string[] {
  return items.flatMap((item) => {
    const record = item as { type?: unknown; role?: unknown; content?: unknown };
    return record.type === 'message' && record.role === 'user' && typeof record.content === 'string'
      ? [record.content]
      : [];
  });
}
