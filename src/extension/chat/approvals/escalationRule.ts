import { ruleMatches, ruleToOffer } from '../../../agent';

// The rule an approval card offers to keep ("Always allow `npm install` in this workspace") when the model
// asks to run a command outside the sandbox. The model suggests one (exec_command's `prefix_rule`), but it is
// the model's word: a rule kept here lets every later command it matches leave the sandbox unasked
// (src/agent/approvals/callGate.ts), so the suggestion is offered only where it is no broader than the rule Loopwire
// would offer for the command itself (ruleToOffer: a program and its subcommand, or a whole command; never an
// interpreter or a wrapper) and it is the command's own. Otherwise the card offers Loopwire's rule.

type Command = { words: readonly string[]; reason?: string };

const wordsOf = (rule: string) => rule.trim().split(/\s+/).filter(Boolean);

/** Whether `prefix` is at least as narrow as the rule Loopwire would offer for `command`, and matches it. */
function fits(prefix: string, command: Command): boolean {
  const own = ruleToOffer([{ words: command.words, reason: 'asked' }]);
  return own !== undefined && ruleMatches(prefix, command.words) && ruleMatches(own, wordsOf(prefix));
}

/**
 * The rule the card of an escalation offers: the model's `prefix` where every command of the line that is not
 * read-only begins with it (one at least) and it is no broader than Loopwire's own rule for each; else Loopwire's
 * own rule for the line (undefined where none fits).
 */
export function escalationRule(
  prefix: string | undefined,
  commands: readonly Command[] | undefined,
): string | undefined {
  const own = ruleToOffer(commands);
  if (prefix === undefined || commands === undefined) return own;
  const rule = wordsOf(prefix).join(' ');
  const asked = commands.filter((command) => command.reason !== undefined);
  const named = commands.filter((command) => ruleMatches(rule, command.words));
  const fitting = named.length > 0 && named.every((command) => fits(rule, command));
  return fitting && asked.every((command) => ruleMatches(rule, command.words)) ? rule : own;
}
