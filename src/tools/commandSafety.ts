import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { gitConfigReason, gitDirReason } from './gitDirCheck';
import { globPaths, onDisk, within } from './pathOnDisk';
import {
  GIT_DIFFS,
  GIT_DIFFS_TEXTCONV,
  GIT_NEUTRAL_CONFIG,
  PROGRAMS,
  type ProgramRules,
  gitSubcommand,
} from './readOnlyPrograms';
import { type ShellWord, parseCommandLine } from './shellParse';

// Whether a shell command only reads, so that it may run without anyone's approval in every mode (the agent
// decides, src/agent/approvals/commandApproval.ts): every command of its pipelines and lists is a program of
// readOnlyPrograms.ts with options that only read, naming no path outside the workspace folder (each path
// walked on disk as the kernel walks it: a link inside that leads out counts as outside), run in a folder of
// the workspace that is no git directory. A safe git command runs with the repository's own programs turned
// off — fsmonitor, the pager, hooks, external diff and textconv — since a repository's .git/config can name
// any program for those (`run` is the line that runs), and not at all where that config names one that cannot
// be turned off (gitDirCheck.ts). On Windows commands run in cmd.exe, which this does not read: nothing there
// is safe.

export interface CommandPlace {
  /** The absolute folder the command runs in. */
  cwd: string;
  /** The absolute root of the workspace folder it runs in: no path may lead out of it. */
  root: string;
  platform?: NodeJS.Platform;
}

/** One command of a line: its words as the program gets them, and why it is not safe, where it is not. */
export interface JudgedCommand {
  words: string[];
  reason?: string;
}

export interface CommandVerdict {
  /** Why the line is not safe; undefined where it is. */
  reason?: string;
  /** The line's commands, where it is plain commands (no substitution, subshell, redirection to a file…). */
  commands?: JudgedCommand[];
  /** The line to run: a safe line's git commands with the repository's programs turned off; else the line. */
  run: string;
}

/** Judges `line`, run in `place`. */
export async function judgeCommand(line: string, place: CommandPlace): Promise<CommandVerdict> {
  if ((place.platform ?? process.platform) === 'win32')
    return { reason: 'commands run in cmd.exe on Windows, whose syntax is not checked', run: line };
  const parsed = await parseCommandLine(line);
  if (!parsed.ok) return { reason: parsed.reason, run: line };
  const at = await placeOnDisk(place);
  const commands: JudgedCommand[] = [];
  for (const words of parsed.commands) {
    const reason = at.reason ?? (await judgeWords(words, at));
    commands.push({ words: words.map((word) => word.value), ...(reason === undefined ? {} : { reason }) });
  }
  const reason = commands.find((command) => command.reason !== undefined)?.reason;
  if (reason !== undefined) return { reason, commands, run: line };
  return { commands, run: neutralGit(line, parsed.commands) };
}

interface Place extends CommandPlace {
  realRoot: string;
  /** The folder it runs in, links resolved. */
  realCwd: string;
  /** Why nothing may run unasked in this folder, where that is so. */
  reason?: string;
  /** The verdict on the repository's config, read once for every git command of the line. */
  gitConfig?: Promise<string | undefined>;
}

/** The place with its links resolved, and whether it is one where commands may run unasked. */
async function placeOnDisk(place: CommandPlace): Promise<Place> {
  const realRoot = await realpath(place.root).catch(() => place.root);
  // A folder that does not exist runs nothing: the command fails to start.
  const realCwd = await realpath(place.cwd).catch(() => place.cwd);
  const at = { ...place, realRoot, realCwd };
  if (!within(place.root, place.cwd) || !within(realRoot, realCwd))
    return { ...at, reason: 'the folder it runs in is outside the workspace folder (through a link)' };
  const reason = await gitDirReason(realCwd, realRoot);
  return reason === undefined ? at : { ...at, reason };
}

async function judgeWords(words: readonly ShellWord[], place: Place): Promise<string | undefined> {
  const [program, ...args] = words;
  const name = program?.value ?? '';
  const rules = Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
  if (!rules) return `${name || 'a program named by a variable'} is not one of the programs known to only read`;
  const denied = args.map((arg) => deniedOption(arg.value, rules)).find((reason) => reason !== undefined);
  if (denied !== undefined)
    return `${name}'s ${denied} may run a program, write a file, read another config or follow links`;
  if (args.some((arg) => arg.tilde)) return 'a path in the home folder (~)';
  if (!rules.globs && args.some((arg) => arg.glob))
    return `an unquoted pattern (*, ?, [) for ${name}: a file named like one of its options could turn that on`;
  if (args.some(matchesParent)) return 'a pattern (.*) that also matches .., the folder above';
  if (args.some((arg) => arg.glob && arg.value.includes('**')))
    return 'a ** pattern, which zsh expands through every folder below (and *** through links)';
  const own = rules.check?.(args);
  if (own !== undefined) return own;
  for (const candidate of pathCandidates(args, rules)) {
    const out = await leadsOut(candidate, place);
    if (out !== undefined) return out;
  }
  if (name === 'git') return (place.gitConfig ??= gitConfigReason(place.realCwd, place.realRoot));
  return undefined;
}

/** The option `value` turns on, where the rules refuse it (a long option's prefix included). */
function deniedOption(value: string, rules: ProgramRules): string | undefined {
  if (value === '-' || value === '--' || !value.startsWith('-')) return undefined;
  if (value.startsWith('--')) {
    const name = value.split('=', 1)[0] as string;
    if (rules.exactLong?.includes(name)) return undefined;
    const refused = rules.denyLong?.find((long) => long === name || (name.length >= 3 && long.startsWith(name)));
    return refused && name;
  }
  const letter = [...value.slice(1)].find((char) => rules.denyShort?.includes(char));
  return letter && `-${letter}`;
}

/** An argument that may name a file, and whether it is an unquoted pattern the shell expands. */
interface Candidate {
  text: string;
  glob: boolean;
}

/**
 * Every argument that may name a file: not the pattern or script, nor an option's pattern value. A lone `-`
 * and every word after `--` are operands (`grep -- -x /etc/passwd` reads /etc/passwd, with -x the pattern).
 */
function pathCandidates(args: readonly ShellWord[], rules: ProgramRules): Candidate[] {
  const candidates: Candidate[] = [];
  let patternSeen = !rules.patternFirst || args.some((arg) => givesPattern(arg.value, rules));
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const { value, glob } = args[i] as ShellWord;
    const option = options && value.startsWith('-') && value !== '-';
    if (option && value === '--') options = false;
    else if (option && rules.patternOptions?.includes(value)) i++;
    else if (option && value.startsWith('--'))
      candidates.push({ text: value.slice(value.indexOf('=') + 1 || value.length), glob: false });
    else if (option) candidates.push({ text: value.slice(2), glob: false });
    else if (!patternSeen) patternSeen = true;
    else candidates.push({ text: value, glob });
  }
  return candidates.filter((candidate) => candidate.text !== '' && candidate.text !== '-');
}

/**
 * Whether an option gives the pattern (`-e`, `--files`, or a prefix GNU takes for one: `--reg=x`), so that the
 * first other argument is a path. Saying so wrongly only makes more words paths to check.
 */
function givesPattern(value: string, rules: ProgramRules): boolean {
  const given = rules.patternFirst;
  if (!given || !value.startsWith('-') || value === '-' || value === '--') return false;
  const name = value.split('=', 1)[0] as string;
  if (value.startsWith('--')) return given.unless.some((long) => long.startsWith(name) && name.length >= 3);
  return [...value.slice(1)].some((char) => given.unlessShort.includes(char));
}

/** The folder a glob lists: its part before the first pattern. */
function globBase(value: string): string {
  const parts = value.split('/');
  const first = parts.findIndex((part) => /[*?[]/.test(part));
  const base = parts.slice(0, first).join('/');
  return base === '' && value.startsWith('/') ? '/' : base || '.';
}

/** A pattern part that starts with a dot (`.*`) can match `..`, which leads up and out of the folder. */
const matchesParent = (word: ShellWord) =>
  word.glob && word.value.split('/').some((part) => part.startsWith('.') && /[*?[]/.test(part));

/**
 * Why `candidate` leads out of the workspace, as written or on disk; for a pattern, any name it may stand for
 * (`ls *` lists what a link among them names).
 */
async function leadsOut(candidate: Candidate, place: Place): Promise<string | undefined> {
  const { text, glob } = candidate;
  const expanded = glob ? await globPaths(place.realCwd, text) : [];
  if (expanded === undefined) return `the pattern ${text} stands for more names than are checked`;
  // A file named `-RL` turns `ls *` into `ls -RL …`, which follows every link.
  const option = expanded.find((each) => each.startsWith('-'));
  if (option !== undefined) return `the pattern ${text} matches ${option}, which the program would take for an option`;
  for (const each of [glob ? globBase(text) : text, ...expanded]) {
    const out =
      !within(place.root, path.resolve(place.cwd, each)) || !within(place.realRoot, await onDisk(place.realCwd, each));
    if (out) return `the path ${each} is outside the workspace folder`;
  }
  return undefined;
}

/** `line` with each git command's repository programs turned off, inserted where its words stand. */
function neutralGit(line: string, commands: readonly ShellWord[][]): string {
  const inserts: { at: number; text: string }[] = [];
  for (const [program, ...args] of commands) {
    if (program?.value !== 'git') continue;
    inserts.push({ at: program.end, text: ` ${GIT_NEUTRAL_CONFIG}` });
    const sub = gitSubcommand(args);
    if (sub && GIT_DIFFS.has(sub.value)) inserts.push({ at: sub.end, text: ' --no-ext-diff --no-textconv' });
    else if (sub && GIT_DIFFS_TEXTCONV.has(sub.value)) inserts.push({ at: sub.end, text: ' --no-textconv' });
  }
  let run = line;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at)) run = run.slice(0, at) + text + run.slice(at);
  return run;
}
