import { type CommandRules, joinRules, rulesIn } from '../../agent';
import type { Inspected } from '../endpoint/endpointChoice';

// Whose command rules count, and for what (commandRulesSetting.ts reads them). An `allow` rule runs a command
// without asking, so it comes only from where a repository cannot write: the user's own settings and what the
// user kept for this workspace ("Always allow"). A workspace's or a folder's settings (a cloned repository's
// .vscode/settings.json, a .code-workspace file) add `deny` rules only. Pure, for the unit tests.

/**
 * The rules for commands run in the folder `root`: `inspected` is `loopwire.commandRules` as VS Code's
 * `inspect` gives it for that folder, `kept` the workspace's kept rules.
 */
export function layeredCommandRules(inspected: Inspected | undefined, kept: unknown, root: string): CommandRules {
  const user = rulesIn(inspected?.globalValue, root);
  const workspace = [inspected?.workspaceValue, inspected?.workspaceFolderValue].map((value) => rulesIn(value, root));
  return joinRules(user, rulesIn(kept, root), ...workspace.map((rules) => ({ allow: [], deny: rules.deny })));
}
