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
  const sandbox = policy.sandbox?.bind(policy);
  return {
    approve: (request) => policy.approve(keep ? { ...request, keepRule: keep } : request),
    ...(mode ? { mode } : {}),
    ...(sandbox ? { sandbox } : {}),
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
 * Programs whose second word is a subcommand naming what they do (`git status`, `npm test`, `cargo build`,
 * `make check`): their rule is the two words. Any other program's arguments are its data (`echo walked
 * through`, `pytest tests/cart.py`): its rule is the whole command, not a prefix cut at a word it happens to
 * have second.
 */
const SUBCOMMANDS = new Set(
  [
    'git gh hg svn',
    'npm pnpm yarn bun corepack nx turbo lerna',
    'cargo rustup go dotnet swift flutter dart mix gradle gradlew mvn sbt',
    'pip pip3 poetry uv pipenv conda bundle gem rake rails composer',
    'make just ninja cmake bazel',
    'docker podman kubectl helm terraform',
    'apt apt-get brew systemctl',
  ].flatMap((line) => line.split(' ')),
);

/** Package managers whose `run` takes a script's name: `npm run build` is the rule, not `npm run`. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** A whole command offered as its rule is one a card can show on a line. */
const MAX_RULE_WORDS = 6;
const MAX_RULE_CHARS = 80;

/**
 * The allow rule an approval may offer for a command line: for a program with subcommands, it and its
 * subcommand (`npm test`, `make check`; `npm run build` for a script); for any other, the whole command
 * (`echo walked through`) — where the line is plain commands and every one that is not safe has that rule;
 * none for an interpreter or a wrapper (`sh -c`, `env`, `xargs`), whose rule would allow anything.
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

function offered(words: readonly string[]): string | undefined {
  const [program, sub, script] = words;
  if (!program || NO_RULE_FOR.has(program) || /[\\/]/.test(program)) return undefined;
  if (!SUBCOMMANDS.has(program)) return wholeCommand(words);
  if (!sub || sub.startsWith('-')) return undefined;
  if (sub === 'run' && SCRIPT_RUNNERS.has(program))
    return script && !script.startsWith('-') ? `${program} run ${script}` : undefined;
  return `${program} ${sub}`;
}

/** `words` as a rule that matches them (each a word the rule splits back the same), if short enough to show. */
function wholeCommand(words: readonly string[]): string | undefined {
  if (words.length > MAX_RULE_WORDS || words.some((word) => word === '' || /\s/.test(word))) return undefined;
  const rule = words.join(' ');
  return rule.length <= MAX_RULE_CHARS ? rule : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string' && rule.trim() !== '') : [];

const samePath = (a: string, b: string) => path.resolve(a) === path.resolve(b);
