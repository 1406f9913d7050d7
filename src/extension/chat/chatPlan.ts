import type { AgentEvent } from '../../agent';
import type { HostMessage } from '../../protocol/chatView';
import { type AnyInputItem, CallItem } from '../../protocol/items';
import type { Plan } from '../../protocol/plan';
import type { ToolRegistry } from '../../tools';

// The task's plan as the panel shows it, a checklist above the composer: the last plan the model set in this
// chat with its plan tool (the tool set says which calls set one, and what). The transcript keeps every call,
// so a reopened chat (a reload, History, a fork) finds its plan there again rather than in a second copy.

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
  /** The plans of calls started and not yet finished: one counts once it ran. */
  private readonly starting = new Map<string, Plan>();

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly tools: () => ToolRegistry,
  ) {}

  /** The plan shown now; undefined: none. */
  get current(): Plan | undefined {
    return this.shown;
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
    }
  }

  /** Another conversation is shown (new, reopened, forked): its plan, from its transcript, goes with its state. */
  from(items: readonly AnyInputItem[]): void {
    this.starting.clear();
    this.shown = lastPlan(items, this.tools());
  }

  private show(plan: Plan): void {
    this.shown = plan;
    this.post({ type: 'plan', plan });
  }
}
