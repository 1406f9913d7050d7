import type { AgentEvent, ApprovalMode } from '../../../agent';
import type { HostMessage } from '../../../protocol/chatView';
import { type AnyInputItem, CallItem } from '../../../protocol/items';
import type { Plan } from '../../../protocol/plan';
import type { ToolRegistry } from '../../../tools';

// The task's plan as the panel shows it, a checklist above the composer: the last plan the model set in this
// chat with its plan tool (the tool set says which calls set one, and what). The transcript keeps every call,
// so a reopened chat (a reload, History, a fork) finds its plan there again rather than in a second copy.
// A task that ended with an answer in plan mode offers Implement (planImplement.ts) until the next one starts.

/** The last plan set by a call of `items` (a transcript's); undefined: none was. */
export function lastPlan(items: readonly AnyInputItem[], tools: ToolRegistry): Plan | undefined {
  let plan: Plan | undefined;
  for (const item of items) {
    const call = CallItem.safeParse(item);
    if (!call.success) continue;
    const input = call.data.type === 'custom_tool_call' ? call.data.input : call.data.arguments;
    plan = tools.plan(call.data.name, input ?? '') ?? plan;
  }
  return plan;
}

export class ChatPlan {
  private shown: Plan | undefined;
  /** The last task answered in plan mode: Implement is offered. */
  private offer = false;
  /** The plans of calls started and not yet finished: one counts once it ran. */
  private readonly starting = new Map<string, Plan>();

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly tools: () => ToolRegistry,
    /** The approval mode in force, read as a task ends; undefined: not known. */
    private readonly mode: () => ApprovalMode | undefined,
  ) {}

  /** The plan shown now; undefined: none. */
  get current(): Plan | undefined {
    return this.shown;
  }

  /** Whether Implement is offered now. */
  get implement(): boolean {
    return this.offer;
  }

  /** A call that sets a plan shows it once it has run (a refused one never does). */
  handle(event: AgentEvent): void {
    if (event.type === 'tool_started') {
      const plan = this.tools().plan(event.name, event.input);
      if (plan) this.starting.set(event.callId, plan);
    } else if (event.type === 'tool_finished') {
      const plan = this.starting.get(event.callId);
      this.starting.delete(event.callId);
      if (plan && event.ok) this.show(plan);
    } else if (event.type === 'turn_started') this.offering(false);
    else if (event.type === 'done') this.offering(event.status === 'completed' && this.mode() === 'plan');
  }

  /** Another conversation is shown (new, reopened, forked): its plan, from its transcript, goes with its state. */
  from(items: readonly AnyInputItem[]): void {
    this.starting.clear();
    this.shown = lastPlan(items, this.tools());
    this.offer = false;
  }

  private show(plan: Plan): void {
    this.shown = plan;
    this.send();
  }

  private offering(offer: boolean): void {
    if (offer === this.offer) return;
    this.offer = offer;
    this.send();
  }

  private send(): void {
    this.post({ type: 'plan', plan: this.shown ?? null, ...(this.offer ? { implement: true } : {}) });
  }
}
