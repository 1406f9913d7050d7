// Who may let a tool call run. Read-only tools always may; writes and tasks are up to the policy, which the
// CLI (a terminal prompt) and the UI (Apply / Skip on a card) implement. Each tool says its own effect
// (`toolEffect` in src/tools). The extension's activation reads the approval setting with this file, so it
// imports types only: no zod, nothing of the agent's (docs/extension.md, Activation: it loads no session code).

import type { ToolEffect } from '../tools';

export type { ToolEffect };

/** The approval modes, as `loopwire exec --approve` and the `loopwire.approval` setting name them. */
export const APPROVAL_MODES = ['ask', 'all', 'read-only'] as const;

/** `ask`: someone allows each write and task; `all`: every call runs; `read-only`: writes and tasks are declined. */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

export interface ApprovalRequest {
  callId: string;
  name: string;
  effect: Exclude<ToolEffect, 'read'>;
  /** The call's arguments (JSON text) or freeform input. */
  input: string;
}

export interface ApprovalPolicy {
  /** Resolves true to run the call. Only asked about writes and tasks. */
  approve(request: ApprovalRequest): Promise<boolean>;
}

export const approveAll: ApprovalPolicy = { approve: () => Promise.resolve(true) };

export const readOnly: ApprovalPolicy = { approve: () => Promise.resolve(false) };

/** Asks someone (a terminal prompt, a UI card) about each write or task. */
export function askEach(ask: (request: ApprovalRequest) => Promise<boolean>): ApprovalPolicy {
  return { approve: ask };
}

/** The policy of a mode: `ask` asks `ask` about each write and task. */
export function policyFor(mode: ApprovalMode, ask: (request: ApprovalRequest) => Promise<boolean>): ApprovalPolicy {
  if (mode === 'all') return approveAll;
  if (mode === 'read-only') return readOnly;
  return askEach(ask);
}
