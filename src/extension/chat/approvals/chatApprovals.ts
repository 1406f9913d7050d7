import { type ApprovalMode, type ApprovalPolicy, type ApprovalRequest, policyFor, ruleToOffer } from '../../../agent';
import { judgeCommandCall } from '../../../tools';
import type { Workspace } from '../../../workspace';
import type { SandboxFor } from '../../trust/windowSandbox';
import { approvalAsk, taskNamed } from './approvalAsk';
import type { WaitingCall } from '../chatActivity';
import type { ChatModel } from '../chatModel';
import { escalationRule } from './escalationRule';

// The chat's approvals: a call that asks shows Allow / Skip on its card and waits for the answer; "for this
// chat" allows every call of that effect from then on, those already waiting included. The approval mode is
// read at each call, so one picked in the composer applies from the next call on. A command the model asks to
// run outside the sandbox is asked each time (Allow once, Always allow its rule, Decline): "for this chat"
// lets calls run in the sandbox unasked, never out of it. Plain Node.

type Effect = ApprovalRequest['effect'];

export interface ApprovalsContext {
  model: ChatModel;
  workspace: () => Promise<Workspace>;
  approvalMode: () => ApprovalMode;
  /** This machine's sandbox for the chat's commands; absent: none (tests, or no sandbox here). */
  sandbox?: SandboxFor | undefined;
  /** Whether the panel can show the question; where it cannot, the host asks elsewhere (a notification). */
  panelShown: () => boolean;
  askElsewhere: (request: ApprovalRequest) => Promise<boolean>;
  /** An effect was allowed for the whole chat (the chat is saved with it). */
  onAllowed: () => void;
  /** The calls waiting changed (the window's badge and notifications follow them). */
  onWaiting?: (calls: readonly WaitingCall[]) => void;
}

export class ChatApprovals {
  private readonly waiting = new Map<
    string,
    {
      resolve: (allow: boolean) => void;
      effect: Effect;
      keep: (() => void) | undefined;
      action: string;
      escalation: boolean;
    }
  >();
  /** Effects the user allowed for the whole chat. */
  private readonly allowedEffects = new Set<Effect>();

  constructor(private readonly context: ApprovalsContext) {}

  /** What the chat's agent is given: the mode's answer, asking on the call's card where the mode asks. */
  policy(): ApprovalPolicy {
    const { model } = this.context;
    const askUser = async (request: ApprovalRequest): Promise<boolean> => {
      const escalation = request.escalation !== undefined;
      if (this.allowedEffects.has(request.effect) && !escalation) return true;
      if (!this.context.panelShown()) return this.context.askElsewhere(request);
      // A subagent's call is on its nested card: it says what is asked as the chat's own (subagentEntries.ts).
      const entry = model.tool(request.callId) ?? model.subagents.callById(request.callId);
      const task =
        request.effect === 'task' ? await taskNamed(this.context.workspace, entry?.summary ?? '') : undefined;
      const ask = approvalAsk(request, entry?.summary ?? '', entry?.diff, task, model.tools);
      const rule = await this.ruleFor(request);
      const keep = rule === undefined ? undefined : () => request.keepRule?.(rule);
      return new Promise<boolean>((resolve) => {
        this.waiting.set(request.callId, { resolve, effect: request.effect, keep, action: ask.action, escalation });
        model.asking(request.callId, rule === undefined ? ask : { ...ask, rule });
        this.waitingChanged();
      });
    };
    const mode = () => this.context.approvalMode();
    const sandbox = this.context.sandbox?.(mode);
    return {
      approve: (request) => policyFor(mode(), askUser, undefined, sandbox).approve(request),
      // Commands that only read run without asking, whichever mode is picked (src/agent/approvals/commandApproval.ts).
      mode,
      ...(sandbox ? { sandbox } : {}),
    };
  }

  /**
   * The allow rule the card may offer for a shell command ("Always allow `npm test` in this workspace"), where
   * the policy can keep one (for a command asked to leave the sandbox, the model's rule where it fits); a
   * failure to judge the command offers none.
   */
  private async ruleFor(request: ApprovalRequest): Promise<string | undefined> {
    if (!request.keepRule) return undefined;
    const judged = await judgeCommandCall(request.name, request.input, await this.context.workspace()).catch(
      () => undefined,
    );
    const commands = judged?.verdict.commands;
    return request.escalation ? escalationRule(request.escalation.prefixRule, commands) : ruleToOffer(commands);
  }

  /**
   * The user's answer on call `callId`'s card; `forChat`: the same for every call of its effect; `always`: keep
   * the card's allow rule for this workspace (its commands then run without asking, in this chat and the next).
   */
  answer(callId: string, allow: boolean, forChat: boolean, always = false): void {
    const asked = this.waiting.get(callId);
    if (!asked) return;
    this.waiting.delete(callId);
    this.waitingChanged();
    this.context.model.answered(callId, allow ? 'running' : 'declined');
    asked.resolve(allow);
    if (allow && always) asked.keep?.();
    if (!allow || !forChat || asked.escalation) return;
    this.allowedEffects.add(asked.effect);
    this.context.onAllowed();
    for (const [other, { effect, escalation }] of [...this.waiting])
      if (effect === asked.effect && !escalation) this.answer(other, true, false);
  }

  /** Every call waiting is declined (Stop). */
  declineWaiting(): void {
    for (const { resolve } of this.waiting.values()) resolve(false);
    this.waiting.clear();
    this.waitingChanged();
  }

  /**
   * The calls waiting are left unanswered (the window is going: a "declined" in the transcript would stop the
   * Resume from asking again).
   */
  abandonWaiting(): void {
    this.waiting.clear();
    this.waitingChanged();
  }

  private waitingChanged(): void {
    this.context.onWaiting?.([...this.waiting].map(([callId, { action }]) => ({ callId, action })));
  }

  /** The effects allowed for the chat, as saved with it. */
  get allowed(): Effect[] {
    return [...this.allowedEffects];
  }

  /** Another chat: what it allowed (none for a new one). */
  setAllowed(effects: readonly Effect[]): void {
    this.allowedEffects.clear();
    for (const effect of effects) this.allowedEffects.add(effect);
  }
}
