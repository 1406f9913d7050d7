import * as path from 'node:path';
import type { ApprovalPolicy, CommandRules } from './approvals';

// The user's command rules as they are written: in the `loopwire.commandRules` setting and in the CLI's
// config file alike, `allow` and `deny` lists for every folder, and `folders` giving a folder's own by its
// absolute path:
//   { "allow": ["npm test"], "deny": ["git push"], "folders": { "/home/me/shop": { "allow": ["make check"] } } }
// Anything else in the value is ignored (a rule is a non-empty string), so a mistyped entry allows nothing.

/** The rules of `value` that apply to the folder `root`: the top lists, and those of `folders[root]`. */
export function rulesIn(value: unknown, root: string): CommandRules {
  if (!isObject(value)) return { allow: [], deny: [] };
  const own = isObject(value['folders'])
    ? Object.entries(value['folders']).filter(([folder]) => samePath(folder, root))
    : [];
  const lists = [value, ...own.map(([, rules]) => rules)].filter(isObject);
  return {
    allow: lists.flatMap((list) => strings(list['allow'])),
    deny: lists.flatMap((list) => strings(list['deny'])),
  };
}

/** Rules from several places, one after the other. */
export function joinRules(...rules: readonly CommandRules[]): CommandRules {
  return { allow: rules.flatMap((r) => r.allow), deny: rules.flatMap((r) => r.deny) };
}

/**
 * `policy`, with its command rules read from `rules` at each call; `keep` keeps an allow rule the user chose
 * while asked (each request carries it to whoever asks).
 */
export function withCommandRules(
  policy: ApprovalPolicy,
  rules: (root: string) => CommandRules,
  keep?: (rule: string) => void,
): ApprovalPolicy {
  const mode = policy.mode?.bind(policy);
  return {
    approve: (request) => policy.approve(keep ? { ...request, keepRule: keep } : request),
    ...(mode ? { mode } : {}),
    commandRules: rules,
  };
}

/** Programs whose second word says nothing of what they run: an allow rule for them would allow anything. */
const NO_RULE_FOR = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'env',
  'sudo',
  'doas',
  'xargs',
  'eval',
  'exec',
  'command',
  'builtin',
  'time',
  'timeout',
  'nice',
  'nohup',
  'watch',
  'python',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'awk',
  'gawk',
  'npx',
  'rm',
]);

/**
 * The allow rule an approval may offer for a command line: its program and subcommand (`npm test`, `make
 * check`), where the line is plain commands and every one that is not safe begins with those two words; none
 * for an interpreter or a wrapper (`sh -c`, `env`, `xargs`), whose rule would allow anything.
 */
export function ruleToOffer(
  commands: readonly { words: readonly string[]; reason?: string }[] | undefined,
): string | undefined {
  const rules = new Set(
    (commands ?? []).filter((command) => command.reason !== undefined).map((command) => offered(command.words)),
  );
  const [rule] = rules;
  return rules.size === 1 ? rule : undefined;
}

function offered([program, sub]: readonly string[]): string | undefined {
  if (!program || !sub || sub.startsWith('-') || NO_RULE_FOR.has(program) || /[\\/]/.test(program)) return undefined;
  return `${program} ${sub}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string' && rule.trim() !== '') : [];

const samePath = (a: string, b: string) => path.resolve(a) === path.resolve(b);
