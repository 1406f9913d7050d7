import type { SandboxMode, SandboxPolicy, SandboxSupport } from '../../sandbox';
import type { ApprovalMode } from './approvals';

// Which OS sandbox a session's commands run in. Each approval mode implies a policy, as Codex pairs them:
// the reading modes `read-only`, `ask` and `auto` `workspace-write`, `all` full access; the user may name
// another (`loopwire exec --sandbox`). Where this machine has no sandbox there is none, whatever was asked:
// no mode claims a sandbox it does not have.

/** The policy an approval mode implies where the user named none. */
export function impliedSandbox(mode: ApprovalMode): SandboxMode {
  if (mode === 'read-only' || mode === 'plan') return 'read-only';
  return mode === 'all' ? 'danger-full-access' : 'workspace-write';
}

export interface SandboxChoice {
  /** The policy the user named; absent: the mode's own. */
  chosen?: SandboxMode | undefined;
  /** Whether confined commands may reach the network (default: no). */
  network?: boolean | undefined;
  support: SandboxSupport;
}

/** The sandbox commands run in under `mode`; undefined: none (full access, or no sandbox here). */
export function sandboxInForce(mode: ApprovalMode, choice: SandboxChoice): SandboxPolicy | undefined {
  if (!choice.support.available) return undefined;
  const sandbox = choice.chosen ?? impliedSandbox(mode);
  if (sandbox === 'danger-full-access') return undefined;
  return { mode: sandbox, network: choice.network ?? false };
}

/** What a command the parser judged read-only runs in: the read-only policy, where there is a sandbox. */
export function readingSandbox(base: SandboxPolicy | undefined): SandboxPolicy | undefined {
  return base && { mode: 'read-only', network: false };
}
