import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
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
// decides, src/agent/commandApproval.ts): every command of its pipelines and lists is a program of
// readOnlyPrograms.ts with options that only read, naming no path outside the workspace folder (a link
// inside that leads out counts as outside). A safe git command runs with the repository's own programs turned
// off — fsmonitor, the pager, external diff and textconv — since a repository's .git/config can name any
// program for those (`run` is the line that runs). On Windows commands run in cmd.exe, which this does not
// read: nothing there is safe.

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
  const realRoot = await realpath(place.root).catch(() => place.root);
  const commands: JudgedCommand[] = [];
  for (const words of parsed.commands) {
    const reason = await judgeWords(words, { ...place, realRoot });
    commands.push({ words: words.map((word) => word.value), ...(reason === undefined ? {} : { reason }) });
  }
  const reason = commands.find((command) => command.reason !== undefined)?.reason;
  if (reason !== undefined) return { reason, commands, run: line };
  return { commands, run: neutralGit(line, parsed.commands) };
}

interface Place extends CommandPlace {
  realRoot: string;
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
  const own = rules.check?.(args);
  if (own !== undefined) return own;
  for (const candidate of pathCandidates(args, rules))
    if (await leadsOut(candidate, place)) return `the path ${candidate} is outside the workspace folder`;
  return undefined;
}

/** The option `value` turns on, where the rules refuse it (a long option's prefix included). */
function deniedOption(value: string, rules: ProgramRules): string | undefined {
  if (value === '-' || value === '--' || !value.startsWith('-')) return undefined;
  if (value.startsWith('--')) {
    const name = value.split('=', 1)[0] as string;
    if (rules.exactLong?.includes(name)) return undefined;
    const refused = rules.denyLong?.find((long) => long === name || (name.length > 3 && long.startsWith(name)));
    return refused && name;
  }
  const letter = [...value.slice(1)].find((char) => rules.denyShort?.includes(char));
  return letter && `-${letter}`;
}

/** Every argument that may name a file: not the pattern or script, nor an option's pattern value. */
function pathCandidates(args: readonly ShellWord[], rules: ProgramRules): string[] {
  const candidates: string[] = [];
  let patternSeen = !rules.patternFirst || args.some((arg) => givesPattern(arg.value, rules));
  for (let i = 0; i < args.length; i++) {
    const { value, glob } = args[i] as ShellWord;
    if (rules.patternOptions?.includes(value)) i++;
    else if (value.startsWith('--')) candidates.push(value.slice(value.indexOf('=') + 1 || value.length));
    else if (value.startsWith('-')) candidates.push(value.slice(2));
    else if (!patternSeen) patternSeen = true;
    else candidates.push(glob ? globBase(value) : value);
  }
  return candidates.filter((candidate) => candidate !== '');
}

/** Whether an option gives the pattern (`-e`, `--files`), so that the first other argument is a path. */
function givesPattern(value: string, rules: ProgramRules): boolean {
  const given = rules.patternFirst;
  if (!given || !value.startsWith('-')) return false;
  if (value.startsWith('--')) return given.unless.some((long) => value === long || value.startsWith(`${long}=`));
  return [...value.slice(1)].some((char) => given.unlessShort.includes(char));
}

/** The folder a glob lists: its part before the first pattern. */
function globBase(value: string): string {
  const parts = value.split('/');
  const first = parts.findIndex((part) => /[*?[]/.test(part));
  const base = parts.slice(0, first).join('/');
  return base === '' && value.startsWith('/') ? '/' : base || '.';
}

const within = (root: string, target: string) => {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** A pattern part that starts with a dot (`.*`) can match `..`, which leads up and out of the folder. */
const matchesParent = (word: ShellWord) =>
  word.glob && word.value.split('/').some((part) => part.startsWith('.') && /[*?[]/.test(part));

async function leadsOut(candidate: string, place: Place): Promise<boolean> {
  const absolute = path.resolve(place.cwd, candidate);
  if (!within(place.root, absolute)) return true;
  // A link inside the folder may name a file outside it; a path that does not exist reads nothing.
  const real = await realpath(absolute).catch(() => undefined);
  return real !== undefined && !within(place.realRoot, real);
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
