import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  AgentHooks,
  type ApprovalMode,
  type HookSpec,
  type SandboxChoice,
  readHookFiles,
  sandboxInForce,
  userHookFiles,
  workspaceHookFiles,
} from '../../agent';
import { shellWord } from '../../mcp/mcpConsent';
import { t } from '../cliL10n';

// `loopwire exec`'s hooks (src/agent/hooks, docs/customize.md): the user's own, from `~/.claude/settings.json`
// and `$XDG_CONFIG_HOME/loopwire/hooks.json`, run as they are; a workspace's (`.claude/settings.json`,
// `.github/hooks/*.json`) came with the repository and run only when named with `--hooks FILE`, which is the
// user's yes to that file (as `--mcp-config` is for servers). Without it they are said once on stderr, with
// the flag that would run them. A file that is not a hooks file is said with its path and left out.

export const hookFlagOptions = { hooks: { type: 'string', multiple: true } } as const;

export const hookFlagsUsage = `  --hooks FILE           ${t(
  "run the hooks FILE holds (Claude Code's settings format; repeatable). A workspace's\n                         .claude/settings.json and .github/hooks/*.json run only when named so; the user's\n                         ~/.claude/settings.json and $XDG_CONFIG_HOME/loopwire/hooks.json always run",
)}
`;

/** Where the run's hooks run and what they are told. */
export interface ExecHookFacts {
  root: string;
  sessionId: string;
  transcriptPath: string;
  approve: ApprovalMode;
  sandbox: SandboxChoice;
  /** The mode in force as each hook runs (a `/plan` prompt's while it runs); absent: `approve`. */
  mode?: () => ApprovalMode;
}

/** `file` as the user would type it from here: relative to the current folder when inside it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return shellWord(relative.startsWith('..') || path.isAbsolute(relative) ? file : relative);
}

/** The files `--hooks` names, made absolute; throws for one that does not exist. */
function givenFiles(given: readonly string[] | undefined): string[] {
  return (given ?? []).map((file) => {
    const absolute = path.resolve(file);
    if (!fs.existsSync(absolute)) throw new Error(`--hooks: ${absolute} does not exist`);
    return fs.realpathSync(absolute);
  });
}

/** Says once, for each workspace file with hooks that `--hooks` did not name, that it is not run and how. */
function noteWorkspaceHooks(root: string, given: readonly string[], say: (line: string) => void): void {
  for (const file of workspaceHookFiles(root)) {
    if (given.includes(fs.realpathSync(file))) continue;
    const specs = readHookFiles([file], () => undefined);
    if (specs.length === 0) continue;
    const shown = shownPath(file);
    const count = specs.length === 1 ? '1 hook' : `${specs.length} hooks`;
    say(`loopwire exec: ${shown} holds ${count}, not run without a yes; to run them, add --hooks ${shown}\n`);
  }
}

/**
 * The run's hooks, or undefined where there are none (the agent then runs nothing around its calls). Problems
 * with a file, and a workspace's hooks left out, are said on `say`. Throws for a `--hooks` file that is missing.
 */
export function execHooks(
  given: readonly string[] | undefined,
  facts: ExecHookFacts,
  say: (line: string) => void,
  home: string = os.homedir(),
): AgentHooks | undefined {
  const files = givenFiles(given);
  noteWorkspaceHooks(facts.root, files, say);
  const report = (line: string) => say(`(${line})\n`);
  const specs: HookSpec[] = readHookFiles([...userHookFiles(home, process.env), ...files], report);
  if (specs.length === 0) return undefined;
  const confined = sandboxInForce(facts.approve, facts.sandbox) !== undefined;
  const { support } = facts.sandbox;
  if (confined) say('(hooks run in the sandbox: workspace-write, network on)\n');
  else if (!support.available)
    say(`(hooks run unconfined, with the user's rights, as there is no sandbox here: ${support.reason})\n`);
  return new AgentHooks(specs, {
    sessionId: facts.sessionId,
    transcriptPath: facts.transcriptPath,
    cwd: facts.root,
    mode: facts.mode ?? (() => facts.approve),
    confined: () => confined,
  });
}
