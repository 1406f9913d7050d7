// Who may let a tool call run. Read-only tools always may; writes and tasks are up to the policy, which the
// CLI (a terminal prompt) and the UI (Apply / Skip on a card) implement.

/** What a call does to the user's machine. */
export type ToolEffect = 'read' | 'write' | 'task';

const EFFECTS: Readonly<Record<string, ToolEffect>> = {
  find_files: 'read',
  search_text: 'read',
  read_file: 'read',
  get_diagnostics: 'read',
  list_tasks: 'read',
  edit_file: 'write',
  apply_patch: 'write',
  write_file: 'write',
  run_task: 'task',
};

/** A tool's effect; an unknown tool reads nothing (it only answers with an error). */
export function effectOf(name: string): ToolEffect {
  return EFFECTS[name] ?? 'read';
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
