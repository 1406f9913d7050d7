// Who allows what in a `loopwire exec` run: the approval mode's policy, with the sandbox it confines commands
// in, the user's command rules (the file's and those given during the run), and the person asked — on the
// terminal, or, where there is none (`--approve auto` in CI), no one: what would be asked is declined, and the
// line printed for the call says `declined: no terminal`.
import {
  type ApprovalMode,
  type ApprovalPolicy,
  type ApprovalRequest,
  policyFor,
  ruleMatches,
  ruleToOffer,
  withCommandRules,
} from '../../agent';
import { type ToolRegistry, judgeCommandCall } from '../../tools';
import type { Workspace } from '../../workspace';
import { cliCommandRules, runCommandRules } from '../commandRulesFile';
import type { ExecOptions } from './execOptions';
import { sandboxReader } from './execSandbox';
import { terminalAsk } from './terminalQuestion';

/** The calls declined because no one could be asked, by call id: the renderer says so on their line. */
export type Unanswered = Set<string>;

export interface ExecApprovalParts {
  options: ExecOptions;
  workspace: Workspace;
  registry: ToolRegistry;
  /** Wraps a question so that the terminal's steering gives way while it is open. */
  asking: <Q, A>(ask: (question: Q) => Promise<A>) => (question: Q) => Promise<A>;
  unanswered: Unanswered;
  /**
   * The approval mode in force, read at each call: a prompt's own (`/plan`) while its task runs, then the
   * run's (execRun.ts's promptChoices). Absent: --approve's throughout.
   */
  mode?: () => ApprovalMode;
}

/**
 * Questions asked one after another: subagents run at once and may each ask, and the terminal reads one
 * answer at a time (two open questions would both take the same line).
 */
export function oneAtATime<Q, A>(ask: (question: Q) => Promise<A>): (question: Q) => Promise<A> {
  let last: Promise<unknown> = Promise.resolve();
  return (question) => {
    const next = last.then(() => ask(question));
    last = next.catch(() => undefined);
    return next;
  };
}

/** The run's approval policy: that of the mode in force at each call, with the user's command rules. */
export function execApprovals(parts: ExecApprovalParts): ApprovalPolicy {
  const { options, registry } = parts;
  const mode = parts.mode ?? (() => options.approve);
  const rules = runCommandRules(cliCommandRules());
  const describe = (request: ApprovalRequest) => registry.summarize(request.name, request.input);
  // `ask` is refused without a terminal (execOptions.ts); `auto` runs, and declines what it would ask.
  const ask = options.host.stdinTerminal
    ? parts.asking(oneAtATime(terminalAsk(describe, (request) => escalationRule(request, parts.workspace))))
    : (request: ApprovalRequest) => {
        parts.unanswered.add(request.callId);
        return Promise.resolve({ refused: 'there is no terminal to ask on (loopwire exec without one)' });
      };
  // One policy per mode, made once: what a call meets, its sandbox included, is the mode's at that call.
  const policies = new Map<ApprovalMode, ApprovalPolicy>();
  const policyOf = (now: ApprovalMode): ApprovalPolicy => {
    const made = policies.get(now) ?? policyFor(now, ask, undefined, sandboxReader(now, options.sandbox));
    policies.set(now, made);
    return made;
  };
  const policy: ApprovalPolicy = {
    approve: (request) => policyOf(mode()).approve(request),
    mode,
    // None where the machine has no sandbox (sandboxReader's contract), whatever the mode.
    ...(options.sandbox.support.available ? { sandbox: () => policyOf(mode()).sandbox?.() } : {}),
  };
  return withCommandRules(policy, rules.rules, rules.allow);
}

/**
 * The allow rule an escalation's question may offer: the model's `prefix_rule`, where it names a program
 * and what it does (never `bash` or `node` alone, which would let anything out: ruleToOffer's judgement)
 * and every command of the line begins with it, so that the rule would let this very line out again.
 */
export async function escalationRule(request: ApprovalRequest, workspace: Workspace): Promise<string | undefined> {
  const prefix = request.escalation?.prefixRule;
  if (prefix === undefined || !request.keepRule) return undefined;
  const words = prefix.split(/\s+/).filter(Boolean);
  if (ruleToOffer([{ words, reason: 'leaves the sandbox' }]) === undefined) return undefined;
  const judged = await judgeCommandCall(request.name, request.input, workspace).catch(() => undefined);
  const commands = judged?.verdict.commands;
  if (commands === undefined || commands.length === 0) return undefined;
  return commands.every((command) => ruleMatches(prefix, command.words)) ? prefix : undefined;
}
