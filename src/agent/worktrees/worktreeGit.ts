import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

// Git as the worktree commands run it: outside any sandbox, on repositories whose config the user may not have
// written (a clone's .git/config is not carried by git, but a checkout an agent or a script once wrote into
// can hold anything). Git runs programs that config names at many points, so each is turned off here, and the
// commands that would run one (a checkout's smudge filter, a diff's textconv) are given options that stop it:
//   core.hooksPath=/dev/null   worktree add runs post-checkout, other commands other hooks;
//   core.fsmonitor=false       status, diff and add would start the fsmonitor hook program;
//   filter.NAME.*=""           checkout (smudge) and add, diff, apply (clean) would run each filter driver;
//   --no-ext-diff --no-textconv on every diff (diff.external, diff.NAME.command / textconv);
//   protocol.allow=never       no transport (core.sshCommand, a fetch of missing objects);
//   core.pager=cat, no GIT_* from our environment (GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF…).
// No merge is made (apply is checked first, never --3way), so no merge driver runs either.

const GIT_TIMEOUT_MS = 60_000;
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

/** The options every command gets, before the filter drivers' (which depend on the repository). */
export const GIT_HARDENED = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.pager=cat',
  '-c',
  'protocol.allow=never',
  '-c',
  'core.sshCommand=false',
  '-c',
  'color.ui=never',
  '-c',
  'core.quotePath=false',
  '-c',
  'commit.gpgSign=false',
  '--no-pager',
];

export interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** The environment git runs with: ours without any GIT_ variable, no prompt, a fixed language for parsing. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
}

/** Runs `git args` in `cwd` with the hardened options; never throws for a non-zero exit (`code` says it). */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { input?: string | Buffer; env?: Record<string, string>; filters?: readonly string[] } = {},
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...GIT_HARDENED, ...(options.filters ?? []), ...args],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, env: gitEnv(options.env), windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        // A git that could not be started at all is not a refusal of git's: the caller cannot go on.
        // Node says ENOENT for a working folder that is not there as for a missing git: told apart here.
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT')
          reject(new Error(existsSync(cwd) ? 'git is not installed' : `The folder ${cwd} is not there.`));
        else resolve({ stdout, stderr, code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/**
 * The options that turn off every filter driver the repository's config names (filter.NAME.clean, .smudge,
 * .process, and .required, which would make a skipped filter an error). Drivers are found by asking git for
 * its whole config, includes resolved: a driver named in .gitattributes but in no config runs nothing anyway.
 */
export async function filterOverrides(cwd: string): Promise<string[]> {
  const listed = await runGit(cwd, ['config', '--null', '--get-regexp', '^filter\\.']);
  const names = new Set<string>();
  for (const entry of listed.stdout.split('\0')) {
    const key = entry.split('\n')[0] ?? '';
    const match = /^filter\.(.+)\.[^.]+$/.exec(key);
    if (match?.[1]) names.add(match[1]);
  }
  return [...names].flatMap((name) =>
    ['clean=', 'smudge=', 'process=', 'required=false'].flatMap((set) => ['-c', `filter.${name}.${set}`]),
  );
}
