import { type CommandVerdict, judgeCommandCall } from '../../tools';
import type { Workspace } from '../../workspace';
import type { ApprovalMode, ApprovalPolicy, CommandRules } from './approvals';

export type { CommandRules };

// Which commands run without asking, which are declined, and which the approval policy decides. A command
// that only reads (src/tools/commandSafety.ts) runs in every mode: reading is what even read-only allows.
// The user's rules come next: `deny` refuses in every mode, over `all` and over safe commands; `allow` runs a
// command without asking in `ask` only. A rule matches a prefix of the words of a command, and must match
// every command of a line (`npm test; rm -rf ~` is not `npm test`). Where a rule may come from — never a
// cloned repository's own settings, for `allow` — is the caller's to keep (the extension's settings, the
// CLI's config file).

export const NO_COMMAND_RULES: CommandRules = { allow: [], deny: [] };

/** Modes in which nothing but reading happens: a command that does more is declined, never asked about. */
const READING_MODES: ReadonlySet<ApprovalMode> = new Set<ApprovalMode>(['read-only', 'plan']);

/**
 * What happens to a command before the policy is asked: it runs, it is declined (and why; `rule`, the user's
 * deny rule that refused it, where one did rather than the approval mode), or the policy decides.
 */
export type CommandDecision = { run: true } | { run: false; why: string; rule?: string } | undefined;

/** The decision for a command judged `verdict` (its line `line`) in `mode` under `rules`. */
export function decideCommand(
  mode: ApprovalMode,
  line: string,
  verdict: CommandVerdict,
  rules: CommandRules,
): CommandDecision {
  const denied = rules.deny.find((rule) => deniedBy(rule, line, verdict));
  if (denied !== undefined) return { run: false, why: `the user's rule "deny: ${denied}" refuses it`, rule: denied };
  if (verdict.reason === undefined) return { run: true };
  if (READING_MODES.has(mode))
    return {
      run: false,
      why: `the approval mode is ${mode}, where only commands that only read may run, and this one is not: ${verdict.reason}`,
    };
  if (mode === 'ask' && allowedBy(rules.allow, verdict)) return { run: true };
  return undefined;
}

const wordsOf = (rule: string) => rule.trim().split(/\s+/).filter(Boolean);

/** Whether `rule`'s words begin `words`. */
export function ruleMatches(rule: string, words: readonly string[]): boolean {
  const ruleWords = wordsOf(rule);
  return ruleWords.length > 0 && ruleWords.every((word, i) => words[i] === word);
}

/** Every command of the line is safe or begins with an allowed rule's words; a line not plain never is. */
export function allowedBy(allow: readonly string[], verdict: CommandVerdict): boolean {
  const commands = verdict.commands;
  return (
    commands !== undefined &&
    commands.every((command) => command.reason === undefined || allow.some((rule) => ruleMatches(rule, command.words)))
  );
}

/**
 * A deny rule matches a run of words anywhere in a command of the line, or, read from the line's text, anywhere
 * in the line (a substitution, `sh -c '…'`, `sudo rm`, `xargs rm`), so that quoting, nesting or wrapping a
 * denied command does not hide it. Its program is matched by base name (`/bin/rm` is `rm`), and git's own
 * options before the subcommand are skipped (`git -c k=v push` is `git push`).
 */
function deniedBy(rule: string, line: string, verdict: CommandVerdict): boolean {
  const ruleWords = wordsOf(rule);
  if (ruleWords.length === 0) return false;
  const commands = verdict.commands ?? [];
  const readings = [
    ...commands.map((command) => command.words),
    ...commands.map((command) => command.words.flatMap(shellWords)),
    ...lineReadings(line),
  ];
  return readings.some((words) => words.some((_, start) => denyMatchesAt(ruleWords, words, start)));
}

/** The line's words three ways: as the shell groups quotes, split at quotes and operators, and with quotes removed. */
function lineReadings(line: string): string[][] {
  const operators = /[\s;&|()`$<>{}]+/;
  return [
    shellWords(line),
    line.split(/[\s;&|()`'"$<>{}\\]+/).filter(Boolean),
    line
      .replace(/['"\\]/g, '')
      .split(operators)
      .filter(Boolean),
  ];
}

/** `text` split into words as a POSIX shell splits them, quotes and backslashes removed; operators split too. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const add = (part: string) => (word = (word ?? '') + part);
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== undefined && char === quote) quote = undefined;
    else if (char === '\\' && quote !== "'") add(text[++i] ?? '');
    else if (quote !== undefined) add(char);
    else if (char === "'" || char === '"') {
      quote = char;
      add('');
    } else if (!/[\s;&|()`<>{}]/.test(char)) add(char);
    else if (word !== undefined) {
      words.push(word);
      word = undefined;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A path's last part: how a rule's program is compared with the command's (`/bin/rm`, `./rm` are `rm`). */
const programName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** git's options before its subcommand that take the next word as their value. */
const GIT_VALUED = new Set([
  '-c',
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--attr-source',
  '--super-prefix',
]);

/** Whether the deny rule's words stand at `start` of `words`. */
function denyMatchesAt(ruleWords: readonly string[], words: readonly string[], start: number): boolean {
  const [program, ...rest] = ruleWords as [string, ...string[]];
  const name = programName(words[start] ?? '');
  let at = start + 1;
  let expected = rest;
  if (program === 'git' && rest.length > 0 && name === `git-${rest[0]}`) expected = rest.slice(1);
  else if (name !== programName(program)) return false;
  else if (programName(program) === 'git' && !rest[0]?.startsWith('-'))
    while (words[at]?.startsWith('-')) at += GIT_VALUED.has(words[at] as string) ? 2 : 1;
  return expected.every((word, i) => words[at + i] === word);
}

/** The decision for a tool call before its policy is asked; undefined for a call that is no shell command. */
export async function commandGate(
  policy: ApprovalPolicy,
  name: string,
  input: string,
  workspace: Workspace,
): Promise<CommandDecision> {
  const mode = policy.mode?.();
  if (mode === undefined) return undefined;
  const judged = await judgeCommandCall(name, input, workspace);
  if (!judged) return undefined;
  const rules = judged.root === undefined ? NO_COMMAND_RULES : (policy.commandRules?.(judged.root) ?? NO_COMMAND_RULES);
  return decideCommand(mode, judged.line, judged.verdict, rules);
}

/** What the model is told of commands in `mode`: which run at once, which wait for the user or are declined. */
export function commandApprovalNote(mode: ApprovalMode, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32')
    return mode === 'all'
      ? 'Shell commands run without asking, except those the user has denied.'
      : READING_MODES.has(mode)
        ? 'Shell commands are declined: this session may only read (use the reading tools).'
        : 'Every shell command waits for the user to approve it: prefer the reading tools to explore.';
  const safe =
    'Shell commands that only read run at once, without approval: rg, grep, find (no -exec or -delete), ls, cat, head, tail, wc, nl, sed -n with line-number p scripts, and git status, diff, log, show, blame, grep and ls-files, alone or joined with |, &&, || or ;, on paths inside the workspace (links resolved), with no $(…), backquotes, backslash escapes outside single quotes, redirection to a file, variables or xargs.';
  if (mode === 'all') return `${safe} Other commands run too, except those the user has denied.`;
  if (READING_MODES.has(mode))
    return `${safe} Every other command is declined: this session may only read, so do not try to change anything.`;
  return `${safe} Any other command waits for the user to approve it (or runs at once where the user has allowed it); one the user denied is declined.`;
}
