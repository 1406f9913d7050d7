import * as vscode from 'vscode';
import { type CommandRules, rulesIn } from '../../agent';
import { layeredCommandRules } from './commandRulesLayers';

// The command rules the window's agents follow (src/agent/approvals/commandApproval.ts). An `allow` rule runs a
// command without asking, so it is read only where a repository cannot write it: the user's own settings
// (`loopwire.commandRules`' global value) and this workspace's storage in VS Code (workspaceState, where
// "Always allow" keeps its rules). A cloned repository's .vscode/settings.json can add `deny` rules only.

/** The workspaceState key of the rules kept for this workspace. */
export const KEPT_RULES_KEY = 'loopwire.commandRules';

/** Keeps `rule` among this workspace's own allow rules (an approval card's "Always allow … in this workspace"). */
export async function keepAllowRule(kept: vscode.Memento, rule: string): Promise<void> {
  const value = kept.get<unknown>(KEPT_RULES_KEY);
  const rules = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const allow = rulesIn(rules, '').allow;
  if (!allow.includes(rule)) await kept.update(KEPT_RULES_KEY, { ...rules, allow: [...allow, rule] });
}

/** The rules for commands run in the workspace folder `root`: that folder's own settings, in a multi-root window. */
export function commandRulesFor(root: string, kept: vscode.Memento): CommandRules {
  const inspected = vscode.workspace
    .getConfiguration('loopwire', vscode.Uri.file(root))
    .inspect<unknown>('commandRules');
  return layeredCommandRules(inspected, kept.get<unknown>(KEPT_RULES_KEY), root);
}
