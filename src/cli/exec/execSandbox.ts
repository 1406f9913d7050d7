// The OS sandbox of a `loopwire exec` run (docs/cli.md, docs/security.md): the flags that choose it, the
// approval mode a run gets by default, the sandbox the agent's commands run in, and what the run says of it.
// The machine's support and the terminal are asked through an ExecHost, so tests can give their own.
import { type ApprovalMode, type SandboxChoice, impliedSandbox, sandboxInForce } from '../../agent';
import {
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxSupport,
  isSandboxMode,
  sandboxSupport,
} from '../../sandbox';
import { t } from '../cliL10n';

/** Where exec runs: whether someone sits at a terminal, and whether this machine can confine commands. */
export interface ExecHost {
  /** stdin is a terminal: a question can be answered. */
  stdinTerminal: boolean;
  /** stderr is a terminal: a question can be seen. */
  stderrTerminal: boolean;
  /** Probed only when asked: a real run of bwrap costs a few tens of milliseconds. */
  support: () => SandboxSupport;
}

export const processHost = (): ExecHost => ({
  stdinTerminal: process.stdin.isTTY === true,
  stderrTerminal: process.stderr.isTTY === true,
  support: () => sandboxSupport(),
});

export const sandboxFlagOptions = {
  sandbox: { type: 'string' },
  'allow-network': { type: 'boolean' },
} as const;

export const sandboxFlagsUsage = `  --sandbox POLICY       ${t(
  "where commands run: read-only, workspace-write or danger-full-access (no sandbox)\n                         (default: the approval mode's own: read-only for read-only and plan,\n                         workspace-write for auto and ask, danger-full-access for all)",
)}
  --allow-network        ${t('let commands in the sandbox reach the network (default: off)')}
`;

/**
 * The approval mode without --approve: `auto` on a terminal where commands can be confined (what runs
 * unasked stays in the sandbox), `ask` on a terminal where they cannot, `read-only` with no one to ask.
 */
export function defaultApproval(host: ExecHost): ApprovalMode {
  if (!(host.stdinTerminal && host.stderrTerminal)) return 'read-only';
  return host.support().available ? 'auto' : 'ask';
}

/** --sandbox, checked; a usage error's text where it names no policy. */
export function parseSandboxFlag(value: string | undefined): SandboxMode | undefined | { error: string } {
  if (value === undefined || isSandboxMode(value)) return value;
  return {
    error: `--sandbox must be ${SANDBOX_MODES.slice(0, -1).join(', ')} or ${SANDBOX_MODES.at(-1)}, not '${value}'`,
  };
}

/** A sandbox the machine cannot give: named by --sandbox, it is refused rather than quietly not applied. */
export function unavailableSandbox(choice: SandboxChoice): string | undefined {
  const { chosen, support } = choice;
  if (support.available || chosen === undefined || chosen === 'danger-full-access') return undefined;
  return (
    `--sandbox ${chosen} needs an OS sandbox, and there is none here: ${support.reason}` +
    `${support.hint ? ` To have one, ${support.hint}.` : ''} Without --sandbox, commands run unconfined.`
  );
}

/**
 * What the agent's commands run in, read by its policy at each call; undefined where the machine has no
 * sandbox, so that the model is neither offered a way out of one nor told of one (the policy's contract).
 */
export function sandboxReader(
  mode: ApprovalMode,
  choice: SandboxChoice,
): (() => SandboxPolicy | undefined) | undefined {
  if (!choice.support.available) return undefined;
  const policy = sandboxInForce(mode, choice);
  return () => policy;
}

/** The reason of an unavailable sandbox, as a clause: its first part, lower-cased, without the full stop. */
function reasonClause(reason: string): string {
  const first = reason.split(': ')[0] ?? reason;
  return first.replace(/\.$/, '').replace(/^[A-Z](?=[a-z])/, (letter) => letter.toLowerCase());
}

/** The sandbox as the header names it: never one the machine does not have. */
export function sandboxLabel(mode: ApprovalMode, choice: SandboxChoice): string {
  const policy = sandboxInForce(mode, choice);
  if (policy) return policy.network ? t('{0} (network on)', policy.mode) : t('{0} (network off)', policy.mode);
  const wanted = choice.chosen ?? impliedSandbox(mode);
  if (wanted === 'danger-full-access' || choice.support.available) return 'danger-full-access';
  return t('none ({0})', reasonClause(choice.support.reason));
}

/**
 * The one line said where the mode would confine commands and the machine cannot: why, how to get a sandbox,
 * and what the mode does instead. Undefined where it does not matter (a sandbox, or full access anyway).
 */
export function noSandboxNotice(mode: ApprovalMode, choice: SandboxChoice, defaulted: boolean): string | undefined {
  const { support } = choice;
  if (support.available || (choice.chosen ?? impliedSandbox(mode)) === 'danger-full-access') return undefined;
  const hint = support.hint ? ` ${t('To have one, {0}.', support.hint)}` : '';
  const instead =
    mode === 'auto'
      ? t('Commands are not confined, so auto asks before each edit and command, as ask does.')
      : mode === 'read-only' || mode === 'plan'
        ? t('Commands are not confined: only those the parser judges read-only run.')
        : defaulted
          ? t('Commands are not confined, so the approval mode is ask, not auto.')
          : t('Commands are not confined: each one that does more than read is asked.');
  return `(${t('No sandbox for commands: {0}', support.reason)}${hint} ${instead})\n`;
}
