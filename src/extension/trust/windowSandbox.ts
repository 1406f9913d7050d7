import { type ApprovalMode, sandboxInForce } from '../../agent';
import { type SandboxPolicy, type SandboxSupport, sandboxSupport } from '../../sandbox';
import { t } from '@vscode/l10n';

// The OS sandbox of the window's commands (src/sandbox; the policy each mode implies is
// src/agent/approvals/callSandbox.ts). A policy is given one only where this machine can confine commands: its presence
// is what offers the model the parameters to leave it and puts <sandbox_mode> in its environment, so no mode
// claims a sandbox this machine does not have. What it confines is read at each call, from the mode in force
// then (the composer's picker may change it between two calls). Plain Node.

/** The sandbox a policy of mode `mode` runs its commands in, read at each call; undefined where there is none. */
export type SandboxFor = (mode: () => ApprovalMode) => (() => SandboxPolicy | undefined) | undefined;

/** This machine's sandbox (bubblewrap, Seatbelt), where it works; network off, as the mode's policy says. */
export const machineSandbox: SandboxFor = (mode) => {
  if (!sandboxSupport().available) return undefined;
  return () => sandboxInForce(mode(), { support: sandboxSupport() });
};

/** The approval mode where nothing is set: `auto` where commands can run in the sandbox, else `ask`. */
export const defaultApproval = (): ApprovalMode => (sandboxSupport().available ? 'auto' : 'ask');

/**
 * Why Auto cannot confine anything here and how to get a sandbox, in the user's words; undefined where the
 * sandbox works. The reason is the probe's own English sentence (a path, bwrap's error), quoted as it is.
 */
export function noSandboxText(support: SandboxSupport = sandboxSupport()): string | undefined {
  if (support.available) return undefined;
  const reason = support.reason.trim().replace(/[.\s]*$/, '.');
  return support.hint
    ? t(
        'Commands cannot run in a sandbox here, so Auto is not available. {0} To get a sandbox: {1}.',
        reason,
        support.hint,
      )
    : t('Commands cannot run in a sandbox here, so Auto is not available. {0}', reason);
}
