import type { ShellWord } from './shellParse';

// The programs a command may run without anyone's approval, and the options that keep them reading: each one
// known to only read files and print, with every option that runs another program, writes a file or follows
// a link out of the workspace refused. GNU's and git's parsers take an unambiguous prefix of a long option
// (`--o` for sort's `--output`), so every prefix of a refused option from `--x` on is refused too. Whatever this
// table does not name is not safe; commandSafety.ts applies it and checks the paths.

export interface ProgramRules {
  /** Long options (and their prefixes) that run a program, write a file or leave the workspace. */
  denyLong?: readonly string[];
  /** Short option letters that do, looked for in every cluster (`-nz`). */
  denyShort?: string;
  /** Long options that are not prefixes of refused ones even though they look it (`--text`, not `--textconv`). */
  exactLong?: readonly string[];
  /** The first argument that is no option is a pattern or a script, not a path, unless these give one. */
  patternFirst?: { unless: readonly string[]; unlessShort: string };
  /** Options whose next word is a pattern, never read as a path. */
  patternOptions?: readonly string[];
  /** Unquoted globs are harmless: the program has no option a file named `--x` could turn on. */
  globs?: boolean;
  /** The program's own check of its arguments (sed's script, git's subcommand); a reason when unsafe. */
  check?: (args: readonly ShellWord[]) => string | undefined;
}

const GREP_PATTERN = { unless: ['--regexp', '--file'], unlessShort: 'ef' };

/** Git's subcommands that only read, and those whose output is a diff (external diff and textconv apply). */
export const GIT_READS = new Set(['status', 'diff', 'log', 'show', 'blame', 'grep', 'ls-files']);
export const GIT_DIFFS = new Set(['diff', 'log', 'show']);
/** Those that run textconv filters on what they read, without being diffs. */
export const GIT_DIFFS_TEXTCONV = new Set(['blame', 'grep']);
/**
 * What a safe git command runs with, since a repository's config may name a program for each: no fsmonitor hook,
 * no pager (`pager.<command>` outranks core.pager, hence --no-pager too), no signature check, no hooks (git
 * status may write the index, which runs post-index-change; --no-optional-locks keeps it from writing), no
 * transport (a fetch of missing objects), and no git directory but the one found through `.git`.
 */
export const GIT_NEUTRAL_CONFIG = [
  '-c core.fsmonitor=false -c core.pager=cat -c log.showSignature=false',
  '-c core.hooksPath=/dev/null -c protocol.allow=never -c safe.bareRepository=explicit',
  '--no-pager --no-optional-locks',
].join(' ');

/** Options refused in every git subcommand: a file written, a config set, a pager, an external program. */
export const GIT_DENIED_LONG = [
  '--output',
  '--open-files-in-pager',
  '--ext-diff',
  '--textconv',
  '--no-index',
  '--show-signature',
  '--ext-grep',
];
export const GIT_DENIED_SHORT = 'cO';

export const PROGRAMS: Readonly<Record<string, ProgramRules>> = {
  // -L lists what the links it meets name (with -R, whole folders outside).
  ls: { globs: true, denyLong: ['--dereference'], denyShort: 'L' },
  cat: {},
  head: {},
  tail: {},
  // --files0-from reads the names of the files to read from a file, which may name any file.
  wc: { denyLong: ['--files0-from'] },
  nl: {},
  pwd: {},
  basename: {},
  dirname: {},
  cut: {},
  tr: {},
  stat: {},
  // -L follows every link it meets, out of the workspace as readily as in it.
  du: { denyLong: ['--files0-from', '--dereference'], denyShort: 'L' },
  cmp: {},
  // A recursive diff follows the links it meets into the folders they name.
  diff: { denyLong: ['--recursive'], denyShort: 'r' },
  // -C writes a compiled magic file; -z and -Z look inside compressed files (with external programs); -f reads
  // the names of the files to look at from a file.
  file: { denyLong: ['--compile', '--uncompress', '--uncompress-noreport', '--files-from'], denyShort: 'CzZf' },
  // -R follows every link it meets (-r only those named), out of the workspace as readily as in it.
  grep: {
    denyLong: ['--dereference-recursive'],
    denyShort: 'R',
    patternFirst: GREP_PATTERN,
    patternOptions: ['-e', '--regexp'],
  },
  egrep: { denyLong: ['--dereference-recursive'], denyShort: 'R', patternFirst: GREP_PATTERN, patternOptions: ['-e'] },
  fgrep: { denyLong: ['--dereference-recursive'], denyShort: 'R', patternFirst: GREP_PATTERN, patternOptions: ['-e'] },
  rg: {
    // --pre runs a program on each file, --hostname-bin one for hyperlinks, -z decompressors; -L follows links.
    denyLong: ['--pre', '--pre-glob', '--hostname-bin', '--search-zip', '--follow'],
    denyShort: 'zL',
    patternFirst: { unless: ['--regexp', '--file', '--files', '--type-list'], unlessShort: 'ef' },
    patternOptions: ['-e', '--regexp'],
  },
  find: { check: findCheck },
  sed: { check: sedCheck },
  sort: {
    denyLong: ['--output', '--compress-program', '--temporary-directory', '--files0-from'],
    denyShort: 'oT',
  },
  // uniq's second operand is the file it writes (`-`, standard input, is an operand too).
  uniq: { check: (args) => (operands(args).length > 1 ? 'uniq writes to a second file it is given' : undefined) },
  // -o writes a file, -R writes one in each folder, -l follows links.
  tree: { denyShort: 'oRl' },
  git: {
    check: gitCheck,
    denyLong: GIT_DENIED_LONG,
    denyShort: GIT_DENIED_SHORT,
    exactLong: ['--text', '--output-indicator-new', '--output-indicator-old'],
  },
};

/** The words that are no option: `-` (standard input) and everything after `--` included. */
export function operands(args: readonly ShellWord[]): ShellWord[] {
  const end = args.findIndex((arg) => arg.value === '--');
  const before = end === -1 ? args : args.slice(0, end);
  const options = (arg: ShellWord) => arg.value.startsWith('-') && arg.value !== '-';
  return [...before.filter((arg) => !options(arg)), ...(end === -1 ? [] : args.slice(end + 1))];
}

/** find's actions that run a program or write a file, the start points read from a file, and links followed. */
const FIND_DENIED = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
  '-files0-from',
  '-L',
  '-follow',
]);

function findCheck(args: readonly ShellWord[]): string | undefined {
  const denied = args.find((arg) => FIND_DENIED.has(arg.value));
  return denied && `find's ${denied.value} runs a program, writes a file or follows links`;
}

/** The options sed may have: quiet (required), scripts given with -e, extended regexps. No -i, no -f. */
const SED_OPTIONS = new Set(['-n', '--quiet', '--silent', '-e', '-E', '-r', '--regexp-extended', '-s', '-u']);
/** A script that prints lines by number: `5p`, `1,20p`, `10,$p`, several with `;`. No w, W, e, s///w. */
const LINE_PRINT = /^\s*(\d+|\$)(\s*,\s*(\d+|\$))?\s*p\s*$/;

function sedCheck(args: readonly ShellWord[]): string | undefined {
  const scripts: string[] = [];
  let quiet = false;
  let files = false;
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value.startsWith('--expression=')) scripts.push(value.slice('--expression='.length));
    else if (value.startsWith('-') && value !== '-') {
      if (!SED_OPTIONS.has(value)) return `sed's ${value} is not one of the options that only print`;
      quiet ||= ['-n', '--quiet', '--silent'].includes(value);
      if (value === '-e') scripts.push(args[++i]?.value ?? '');
    } else if (scripts.length === 0 && !files) scripts.push(value);
    else files = true;
  }
  if (!quiet) return 'sed without -n';
  const bad = scripts.flatMap((script) => script.split(';')).find((part) => !LINE_PRINT.test(part));
  return scripts.length === 0 || bad !== undefined
    ? `the sed script ${bad ?? ''} is not a line-number print`
    : undefined;
}

/** git reads with its subcommand right after `git` (only `--no-pager` before it): no -c, -C or --git-dir. */
function gitCheck(args: readonly ShellWord[]): string | undefined {
  const sub = gitSubcommand(args);
  if (sub === undefined) return 'git with options before its subcommand (-c, -C, --git-dir…)';
  if (!GIT_READS.has(sub.value)) return `git ${sub.value} is not one of the subcommands that only read`;
  // %G?, %GG, %GS… check a commit's signature with the gpg program (a --pretty name may stand for them too,
  // but gpg.* in the repository's own config is refused, so that name runs the user's gpg).
  if (args.some((arg) => arg.value.includes('%G'))) return 'a git format with %G, which runs the signature program';
  return undefined;
}

/** The subcommand word of a git command's arguments, or undefined where options come before it. */
export function gitSubcommand(args: readonly ShellWord[]): ShellWord | undefined {
  const first = args[0]?.value === '--no-pager' ? args[1] : args[0];
  return first && !first.value.startsWith('-') ? first : undefined;
}
