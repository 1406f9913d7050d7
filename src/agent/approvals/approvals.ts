// Who may let a tool call run. Read-only tools always may; writes and tasks are up to the policy, which the
// CLI (a terminal prompt) and the UI (Apply / Skip on a card) implement. Each tool says its own effect
// (`toolEffect` in src/tools). The extension's activation reads the approval setting with this file, so it
// imports types only: no zod, nothing of the agent's (docs/extension.md, Activation: it loads no session code).

import type { SandboxPolicy } from '../../sandbox';
import { inProtectedFolder } from '../../workspace';
import type { ToolEffect } from '../../tools';

export type { ToolEffect };

/** The approval modes, as `loopwire exec --approve` and the `loopwire.approval` setting name them. */
export const APPROVAL_MODES = ['ask', 'all', 'read-only', 'plan', 'auto'] as const;

/**
 * `ask`: someone allows each write and task; `all`: every call runs; `read-only`: writes and tasks are declined;
 * `plan`: declined too, while the model makes a plan and is told so (planMode.ts); `auto`: edits, tasks and
 * commands run without asking inside the OS sandbox (workspace-write), and someone is asked only where the
 * model asks to leave it (`require_escalated`) or an edit touches a protected folder (.git, .vscode…).
 */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/**
 * The user's command rules: each a command's first words (`npm test`, `git push`). `deny` refuses a command in
 * every mode; `allow` runs one without asking in `ask` (src/agent/approvals/commandApproval.ts).
 */
export interface CommandRules {
  allow: readonly string[];
  deny: readonly string[];
}

export interface ApprovalRequest {
  callId: string;
  name: string;
  effect: Exclude<ToolEffect, 'read'>;
  /** The call's arguments (JSON text) or freeform input. */
  input: string;
  /**
   * Keeps an `allow` rule where a repository cannot write it (the workspace's storage): given where the user's
   * command rules are kept, so that an approval card can offer "Always allow `npm test` in this workspace".
   */
  keepRule?: (rule: string) => void;
  /** The model asks to run this command outside the sandbox: its reason, and the rule it suggests. */
  escalation?: Escalation;
  /** The workspace paths an edit writes (where the tool names them): `auto` asks for a protected one. */
  paths?: readonly string[];
  /** A PreToolUse hook asks that someone be asked (its reason, maybe empty), whatever the mode would do. */
  hookAsks?: string;
}

/** A command the model asked to run outside the sandbox (exec_command's `sandbox_permissions`). */
export interface Escalation {
  /** Why, in the model's words (`justification`). */
  justification?: string;
  /** The command prefix it suggests the user allow for good (`prefix_rule`, joined with spaces). */
  prefixRule?: string;
}

/**
 * An answer to an approval: true runs the call, false is the user's no; a refusal says why no one said yes
 * (no terminal to ask on), so that the model is told the truth rather than that the user declined.
 */
export type ApprovalAnswer = boolean | { refused: string };

export interface ApprovalPolicy {
  /** Resolves true to run the call. Only asked about writes and tasks. */
  approve(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /**
   * The mode in force, read at each call: a command that only reads runs without asking in every mode, and
   * one that does more is declined in `read-only` (src/agent/approvals/commandApproval.ts). Absent: every command is
   * the policy's to allow.
   */
  mode?(): ApprovalMode;
  /** The user's `allow` and `deny` rules for commands run in the workspace folder `root`. */
  commandRules?(root: string): CommandRules;
  /**
   * The OS sandbox commands and tasks run in, read at each call (src/agent/approvals/callSandbox.ts); absent or
   * undefined: none (no sandbox here, or full access), and commands run as the user's own.
   */
  sandbox?(): SandboxPolicy | undefined;
}

export const approveAll: ApprovalPolicy = { approve: () => Promise.resolve(true), mode: () => 'all' };

export const readOnly: ApprovalPolicy = { approve: () => Promise.resolve(false), mode: () => 'read-only' };

/** Asks someone (a terminal prompt, a UI card) about each write or task. */
export function askEach(ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>): ApprovalPolicy {
  return { approve: ask, mode: () => 'ask' };
}

/**
 * The policy of a mode: `ask` asks `ask` about each write and task. `rules`: the user's command rules for a
 * workspace folder (none by default).
 */
export function policyFor(
  mode: ApprovalMode,
  ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>,
  rules?: (root: string) => CommandRules,
  sandbox?: () => SandboxPolicy | undefined,
): ApprovalPolicy {
  const base =
    mode === 'all'
      ? approveAll
      : mode === 'read-only' || mode === 'plan'
        ? readOnly
        : mode === 'auto'
          ? askOutsideSandbox(ask, sandbox)
          : askEach(ask);
  return {
    // A hook that asks is asked about in every mode that may run the call; the reading modes still decline.
    approve: (request) =>
      request.hookAsks !== undefined && mode !== 'read-only' && mode !== 'plan' ? ask(request) : base.approve(request),
    mode: () => mode,
    ...(rules ? { commandRules: rules } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
}

// The protected folders (an edit there asks in `auto` too) are the Workspace port's to name (workspacePath.ts):
// its writes refuse a link that leads into one from a path that is not in one.
export { inProtectedFolder } from '../../workspace';

/**
 * `auto`: what runs in the sandbox runs; leaving it, or an edit of a protected folder, is asked. With no
 * sandbox in force (none here, or full access chosen) nothing is confined, so every call is asked, as in `ask`.
 */
function askOutsideSandbox(
  ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>,
  sandbox: (() => SandboxPolicy | undefined) | undefined,
): ApprovalPolicy {
  return {
    approve: (request) =>
      sandbox?.() === undefined || request.escalation !== undefined || (request.paths ?? []).some(inProtectedFolder)
        ? ask(request)
        : Promise.resolve(true),
    mode: () => 'auto',
  };
}
