import type { SandboxPolicy } from '../../sandbox';
import { judgeCommandCall } from '../../tools';
import type { Workspace } from '../../workspace';
import type { ApprovalPolicy, Escalation } from './approvals';
import { type CommandDecision, NO_COMMAND_RULES, allowedBy, decideCommand } from './commandApproval';
import { readingSandbox } from './callSandbox';

// What happens to a shell command before anyone is asked, and which sandbox it runs in (docs/security.md).
// The user's deny rules refuse in every mode. In the reading modes only what the parser judges read-only
// runs, inside the read-only sandbox. In `auto` a command runs without asking inside the sandbox, unless the
// model asks to leave it (`require_escalated`): then the user is asked, and a yes runs it unconfined, as does
// an allow rule (the prefix the user allowed for good). In `ask` the user allows each command that does more
// than read (or an allow rule does), and it runs in the sandbox; one the model asks to run outside it is
// asked as such. `all` runs everything in the sandbox the user chose (none by default).

/** A command that runs, in `sandbox`; one declined; or one someone must allow (then it runs in `sandbox`). */
export type CallGate =
  | { run: true; sandbox: SandboxPolicy | undefined }
  | (Extract<CommandDecision, { run: false }> & { sandbox?: undefined })
  | { ask: true; sandbox: SandboxPolicy | undefined; escalation?: Escalation };

/** The gate for a tool call; undefined for a call that is no shell command (the policy decides). */
export async function gateCall(
  policy: ApprovalPolicy,
  name: string,
  input: string,
  workspace: Workspace,
): Promise<CallGate | undefined> {
  const mode = policy.mode?.();
  if (mode === undefined) return undefined;
  const judged = await judgeCommandCall(name, input, workspace);
  if (!judged) return undefined;
  const rules = judged.root === undefined ? NO_COMMAND_RULES : (policy.commandRules?.(judged.root) ?? NO_COMMAND_RULES);
  const decision = decideCommand(mode, judged.line, judged.verdict, rules);
  if (decision?.run === false) return decision;
  const base = policy.sandbox?.();
  // Only the reading modes decline what is not read-only; what they let through reads, in the read-only sandbox.
  if (mode === 'read-only' || mode === 'plan') return { run: true, sandbox: readingSandbox(base) };
  if (mode === 'all') return { run: true, sandbox: base };
  // Asking to leave a sandbox means something only where there is one.
  // The user's allow rules (the prefixes allowed for good) let it out unasked, as they let a command run in `ask`.
  if (judged.escalation && base)
    return allowedBy(rules.allow, judged.verdict)
      ? { run: true, sandbox: undefined }
      : { ask: true, sandbox: undefined, escalation: judged.escalation };
  if (mode === 'auto' && base) return { run: true, sandbox: base };
  if (decision?.run) return { run: true, sandbox: judged.verdict.reason === undefined ? readingSandbox(base) : base };
  return { ask: true, sandbox: base };
}
