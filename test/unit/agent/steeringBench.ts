import * as assert from 'node:assert/strict';
import {
  Agent,
  type AgentEvent,
  type ApprovalPolicy,
  type ContextPlan,
  ModelTransport,
  Transcript,
  approveAll,
} from '../../../src/agent';
import type { AnyInputItem } from '../../../src/protocol';
import type { ScenarioFile } from '../../../src/server';
import { BUILTIN_TOOLS, ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { AgentBench } from './agentHarness';

// An agent on a model the test names (the harness's is gpt-5.5, which does not steer natively), with a hook
// on its events so that a test can steer at the moment a given event streams.

export interface Steering {
  agent: Agent;
  transport: ModelTransport;
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
  const transport = new ModelTransport({
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

/** The text the steering tests steer with, and the scenario that answers it. */
export const STEER = 'only hotels';

/** `count` words `word0 word1 …`: a message long enough that a steer lands while it streams. */
export function words(count: number, word: string): string {
  return Array.from({ length: count }, (_, index) => `${word}${index % 10}`).join(' ');
}

/** `plan the trip`: two slow messages (a steer during the first ends the response before the second). */
export const PLAN_SCENARIO: ScenarioFile['scenarios'][number] = {
  name: 'plan',
  match: 'plan the trip',
  steps: [
    {
      output: [
        { type: 'message', text: `Route: ${words(30, 'road')}` },
        { type: 'message', text: `Sights: ${words(30, 'sight')}` },
      ],
    },
  ],
};

/** The story of a plan answered whole, then the steer and its answer (however the steer reached the model). */
export const AFTER_THE_PLAN = [
  'user: plan',
  'assistant: Route:',
  'assistant: Sights:',
  'user: only',
  'assistant: Hotels',
];

/** `only hotels`, the steer's own scenario: one message. */
export const HOTELS_SCENARIO: ScenarioFile['scenarios'][number] = {
  name: 'hotels',
  match: STEER,
  steps: [{ output: [{ type: 'message', text: 'Hotels only: Lisbon.' }] }],
};

/** The user messages and answers, in transcript order, as `role: first word` lines (tags left out). */
export function story(items: readonly AnyInputItem[]): string[] {
  return items.flatMap((item) => {
    const record = item as { type?: string; role?: string; content?: unknown };
    if (record.type !== 'message' || (record.role !== 'user' && record.role !== 'assistant')) return [];
    const content = record.content;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((part: { text?: string }) => part.text ?? '').join('')
          : '';
    return text.startsWith('<') ? [] : [`${record.role}: ${text.split(' ')[0] ?? ''}`];
  });
}

/** Steers `text` at the first event of type `type` (asserting the running task took it). */
export function steerAt(run: Steering, type: AgentEvent['type'], text: string): void {
  whenEvent(
    run,
    (event) => event.type === type,
    () => assert.ok(run.agent.steer(text), `the task took "${text}"`),
  );
}
