import { t } from '@vscode/l10n';
import { type AnyInputItem, CallItem, type InputImage } from '../protocol';
import {
  BUILTIN_TOOLS,
  type ToolCall,
  type ToolContext,
  type ToolRegistry,
  type ToolResult,
  runToolCall,
  translating,
} from '../tools';
import { type ApprovalMode, type ApprovalPolicy, inProtectedFolder } from './approvals/approvals';
import type { SandboxPolicy } from '../sandbox';
import { type CallGate, gateCall } from './approvals/callGate';
import type { CommandDecision } from './approvals/commandApproval';
import type { AgentEventSink } from './events';
import { planModeDeclined } from './approvals/planMode';
import type { Transcript } from './conversation/transcript';
import type { AgentHooks } from './hooks/agentHooks';
import { afterCall, beforeCall, deniedByHook } from './hooks/toolHooks';

// The tool calls of one response: consecutive read-only calls run side by side, every write or task on
// its own and in order. Each call is marked started in the transcript before it runs and its output is
// appended after, so a resumed session never runs it again.

export interface CallTiming {
  /** performance.now() of the first start and the last finish; undefined when no call ran. */
  firstStartAt: number | undefined;
  lastFinishAt: number | undefined;
  /** Time spent waiting for someone to approve, which is neither the tools' nor the client's. */
  approvalMs: number;
  /** The calls that failed (declined ones included), each as its name and input: what a repeat is told by. */
  failed: string[];
}

/** A call as its name and input: the same call twice has the same signature. */
export const callSignature = (item: CallItem): string =>
  `${item.name}\u0000${item.type === 'custom_tool_call' ? (item.input ?? '') : (item.arguments ?? '')}`;

const toCall = (item: CallItem): ToolCall =>
  item.type === 'custom_tool_call'
    ? { kind: 'custom', name: item.name, input: item.input ?? '' }
    : { kind: 'function', name: item.name, arguments: item.arguments ?? '' };

/** A call's answer: its text, or (with images, view_image's) its text's part then the images, as the API takes. */
const outputItem = (item: CallItem, text: string, images: readonly InputImage[] = []): AnyInputItem => {
  const output = images.length === 0 ? text : [{ type: 'input_text' as const, text }, ...images];
  return item.type === 'custom_tool_call'
    ? { type: 'custom_tool_call_output', call_id: item.call_id, output }
    : { type: 'function_call_output', call_id: item.call_id, output };
};

/** The call items of an output list, parsed with the protocol's schema; other items are not calls. */
export function callsIn(items: readonly AnyInputItem[]): CallItem[] {
  return items.flatMap((item) => {
    const call = CallItem.safeParse(item);
    return call.success ? [call.data] : [];
  });
}

/**
 * A call that did not run: the user's rule or the approval mode refused it, plan mode, or the user said no.
 * `output` is what the model is told (English); `shown`, the person's copy in their language (none in English).
 */
function declinedResult(
  name: string,
  gate: CommandDecision | { refused: string },
  mode: ApprovalMode | undefined,
): ToolResult {
  if (gate && 'refused' in gate)
    return {
      ok: false,
      output: `This ${name} call was not run: it needs the user's yes, and ${gate.refused}. Nothing was changed. Do not retry it; go on without it, or say in your answer what you needed to run and why.`,
      ...(translating()
        ? { shown: t('Not run: it needs your yes, and no one could be asked. Nothing was changed.') }
        : {}),
    };
  const shown = translating() ? declinedDisplay(gate, mode) : undefined;
  const result = (output: string): ToolResult => ({
    ok: false,
    output,
    ...(shown === undefined ? {} : { shown }),
  });
  if (gate && !gate.run)
    return result(
      `This ${name} call was not run, because ${gate.why}. Nothing was changed. Do not retry it; read another way, or say what you wanted to run.`,
    );
  if (mode === 'plan') return result(planModeDeclined(name));
  return result(
    `The user declined this ${name} call; nothing was changed. Do not retry it unless the user asks; say what you wanted to do instead.`,
  );
}

/** Why a call did not run, as the person reads it. */
function declinedDisplay(gate: CommandDecision, mode: ApprovalMode | undefined): string {
  if (gate && !gate.run)
    return gate.rule === undefined
      ? t('Not run: in the {0} approval mode only commands that only read may run, and this one does more.', mode ?? '')
      : t('Not run: your rule "deny: {0}" refuses it. Nothing was changed.', gate.rule);
  if (mode === 'plan') return t('Not run: the chat is in plan mode, where nothing is written and no task runs.');
  return t('Not run: it was not approved. Nothing was changed.');
}

/**
 * A finished call's output as `tool_finished` carries it: `output`, the whole of it in the model's words
 * (English in every language: programs reading `loopwire exec --json` match on it), where the model got it
 * cut to its budget; `shown`, the person's copy in their language, which the panel and the terminal show
 * instead, only where it differs.
 */
function finishedOutput({ output, display, shown }: ToolResult): { output: string; shown?: string } {
  const whole = display ?? output;
  return shown === undefined || shown === whole ? { output: whole } : { output: whole, shown };
}

/** A call that may run: the sandbox it runs in (undefined: unconfined). */
interface Permit {
  sandbox: SandboxPolicy | undefined;
}

export class ToolRunner {
  constructor(
    private readonly context: ToolContext,
    private readonly approvals: ApprovalPolicy,
    private readonly transcript: Transcript,
    private readonly emit: AgentEventSink,
    /**
     * The tools calls are run with now, and asked their effect (tools added at run time: MCP servers'): those
     * of the request the calls answer, which a custom agent or a prompt file narrows. A call to any other is
     * refused as an unknown tool is, whatever was offered.
     */
    private readonly tools: () => ToolRegistry = () => BUILTIN_TOOLS,
    /** The output budget of the model calls now answer (the catalogue's); absent: the tools' default. */
    private readonly outputTokens?: () => number,
    /** The session's hooks (src/agent/hooks); absent where none are set: nothing runs around a call. */
    private readonly hooks?: AgentHooks,
  ) {}

  /** Runs `calls` (of turn `turn`) and appends their outputs to the transcript in call order. */
  async runAll(turn: number, calls: readonly CallItem[], signal: AbortSignal): Promise<CallTiming> {
    const timing: CallTiming = { firstStartAt: undefined, lastFinishAt: undefined, approvalMs: 0, failed: [] };
    let index = 0;
    while (index < calls.length) {
      if (signal.aborted) break;
      const group: CallItem[] = [];
      do group.push(calls[index++] as CallItem);
      while (
        this.tools().effect((group[0] as CallItem).name) === 'read' &&
        index < calls.length &&
        this.tools().effect((calls[index] as CallItem).name) === 'read'
      );
      const outputs = await Promise.all(group.map((call) => this.runOne(turn, call, timing, signal)));
      this.transcript.append(...outputs);
    }
    return timing;
  }

  /** An answer for a call that started before the session stopped: it is not run again. */
  interrupted(call: CallItem): AnyInputItem {
    return outputItem(
      call,
      `This ${call.name} call was interrupted when the session stopped; it may or may not have taken effect. Check the current state (read the file again) before repeating it.`,
    );
  }

  /**
   * The gate's decision. A command it cannot judge (its parser failed to load) is left to the policy, which
   * asks or declines as before, in the session's sandbox: failing safe, never running what was not judged.
   */
  private async gate(name: string, input: string): Promise<CallGate | undefined> {
    try {
      return await gateCall(this.approvals, name, input, this.context.workspace);
    } catch {
      return undefined;
    }
  }

  private async runOne(turn: number, call: CallItem, timing: CallTiming, signal: AbortSignal): Promise<AnyInputItem> {
    const input = call.type === 'custom_tool_call' ? (call.input ?? '') : (call.arguments ?? '');
    const kind = call.type === 'custom_tool_call' ? 'custom' : 'function';
    timing.firstStartAt ??= performance.now();
    this.emit({ type: 'tool_started', turn, callId: call.call_id, name: call.name, kind, input });
    const asked = performance.now();
    const permission = await this.permission(call, input);
    // A call's duration is its own run: the wait for a person to approve it is not the tool's time.
    const start = performance.now();
    timing.approvalMs += start - asked;
    const declined = !('sandbox' in permission);
    const result: ToolResult =
      'sandbox' in permission ? await this.execute(call, permission.sandbox, signal) : permission;
    const { ok, edits, images } = result;
    // A PostToolUse hook's word for the model follows the output of a call that ran.
    const after = this.hooks && !declined ? await this.afterHooks(call, input, result) : undefined;
    const output = after === undefined ? result.output : `${result.output}${after}`;
    const end = performance.now();
    timing.lastFinishAt = Math.max(timing.lastFinishAt ?? 0, end);
    if (!ok) timing.failed.push(callSignature(call));
    this.emit({
      type: 'tool_finished',
      turn,
      callId: call.call_id,
      name: call.name,
      ok,
      ...finishedOutput(result),
      durationMs: end - start,
      ...(declined ? { declined } : {}),
      ...(edits && edits.length > 0 ? { edits } : {}),
    });
    return outputItem(call, output, images);
  }

  /** The PostToolUse hooks of a call that ran: what they add to its output, if anything. */
  private afterHooks(call: CallItem, input: string, result: ToolResult): Promise<string | undefined> {
    const ran = { callId: call.call_id, name: call.name, input, output: result.output, ok: result.ok };
    return this.hooks ? afterCall(this.hooks, ran, this.emit) : Promise.resolve(undefined);
  }

  /**
   * Where the call may run, the sandbox it runs in; else its answer. A PreToolUse hook speaks first (its deny
   * runs nothing; its allow skips the question, not the deny rules or the sandbox; its ask asks). Reads run;
   * the rest is the gate's or a person's.
   */
  private async permission(call: CallItem, input: string): Promise<Permit | ToolResult> {
    const asked = { callId: call.call_id, name: call.name, input };
    const hook = this.hooks ? await beforeCall(this.hooks, asked, this.emit) : undefined;
    if (hook?.decision === 'deny') return { ok: false, output: deniedByHook(call.name, hook.reason) };
    const effect = this.tools().effect(call.name);
    if (effect === 'read') return { sandbox: this.approvals.sandbox?.() };
    // A command that only reads, one the user's rules name, or one in the sandbox is decided before anyone is asked.
    const gate = await this.gate(call.name, input);
    const mode = this.approvals.mode?.();
    if (gate && 'run' in gate) {
      if (!gate.run) return declinedResult(call.name, gate, mode);
      if (hook?.decision !== 'ask') return { sandbox: gate.sandbox };
    }
    const escalation = gate && 'escalation' in gate ? gate.escalation : undefined;
    const paths = effect === 'write' ? this.tools().paths(call.name, input) : [];
    // A hook's yes is the user's own, but not in a mode that changes nothing, and never out of the sandbox: an
    // escalation it allows runs confined, and an edit of a protected folder (the sandbox's read-only ones:
    // .git/config names programs that git runs unconfined) is still the mode's question. A hook that allows
    // every edit was written for the project's files, not for those.
    if (hook?.decision === 'allow' && mode !== 'read-only' && mode !== 'plan' && !paths.some(inProtectedFolder))
      return { sandbox: gate && !escalation ? gate.sandbox : this.approvals.sandbox?.() };
    const answer = await this.approvals.approve({
      callId: call.call_id,
      name: call.name,
      effect,
      input,
      ...(escalation ? { escalation } : {}),
      ...(paths.length > 0 ? { paths } : {}),
      ...(hook?.decision === 'ask' ? { hookAsks: hook.reason ?? '' } : {}),
    });
    if (answer !== true) return declinedResult(call.name, answer === false ? undefined : answer, mode);
    return { sandbox: gate ? gate.sandbox : this.approvals.sandbox?.() };
  }

  /** Runs an allowed call, marked started first, within the output budget of the model it answers. */
  private execute(call: CallItem, sandbox: SandboxPolicy | undefined, signal: AbortSignal): Promise<ToolResult> {
    this.transcript.markStarted(call.call_id, call.name);
    const context = {
      ...this.context,
      // A subagent the call starts names it as its parent, and runs under the task's Stop (src/agent/subagents).
      callId: call.call_id,
      signal,
      ...(this.outputTokens ? { outputTokens: this.outputTokens() } : {}),
      ...(sandbox ? { sandbox } : {}),
    };
    return runToolCall(toCall(call), context, this.tools());
  }
}
