// `loopwire worktree list | apply NAME | discard NAME [--force]`: finishing what `loopwire exec --worktree`
// started (docs/worktrees.md): the worktrees Loopwire made in a repository, with their state; a worktree's
// changes applied to the workspace's working tree (all or nothing); a worktree, its branch and record removed.
import { applyWorktree, discardWorktree, listWorktrees, type WorktreeStatus } from '../agent/worktrees';
import { type CliIo, ExitCode, errorMessage, parseFlags } from './cliIo';
import { t } from './cliL10n';

export const worktreeUsage = `${t('usage: {0}', 'loopwire worktree list | apply NAME | discard NAME [--force] [--workspace DIR]')}

${t("The git worktrees `loopwire exec --worktree NAME` made for its tasks, in the repository of DIR:\n  list           each one's branch, folder and state (changes not applied, uncommitted files, gone)\n  apply NAME     apply its changes against its base to the working tree of DIR's repository, all or\n                 nothing: on a conflict no file is changed\n  discard NAME   remove the worktree and its branch; refused while it holds changes not applied")}

  --workspace DIR  ${t('a folder of the repository (default: the current directory)')}
  --force          ${t('discard even changes not applied')}
  --json           ${t('list as JSON')}

${t('Exit status: 0 done, 1 refused or failed (the reason on one line), 2 bad usage.')}
`;

const FLAGS = {
  allowPositionals: true,
  options: {
    workspace: { type: 'string' },
    force: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
} as const;

const NAME = 'loopwire worktree';

export async function worktreeCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseFlags(io, { name: NAME, usage: worktreeUsage }, { args: argv, ...FLAGS });
  if (typeof parsed === 'number') return parsed;
  const [action, name, ...extra] = parsed.positionals;
  const wantsName = action === 'apply' || action === 'discard';
  const problem =
    action === undefined || !['list', 'apply', 'discard'].includes(action)
      ? 'say list, apply NAME or discard NAME'
      : wantsName && name === undefined
        ? `${action} needs the worktree's NAME`
        : (!wantsName && name !== undefined) || extra.length > 0
          ? 'too many arguments'
          : undefined;
  if (problem !== undefined) {
    io.stderr(`${NAME}: ${problem}\n\n${worktreeUsage}`);
    return ExitCode.usage;
  }
  const folder = parsed.values.workspace ?? process.cwd();
  try {
    if (action === 'list') return listCommand(await listWorktrees(folder), parsed.values.json === true, io);
    if (action === 'apply') {
      const files = await applyWorktree(folder, name ?? '');
      io.stdout(
        `${filesLine(files, t('Applied {0} file to the workspace:', '1'), t('Applied {0} files to the workspace:', String(files.length)))}\n`,
      );
      return ExitCode.ok;
    }
    const status = await discardWorktree(folder, name ?? '', parsed.values.force === true);
    io.stdout(`${t('Discarded {0} (branch {1}).', status.record.path, status.record.branch)}\n`);
    return ExitCode.ok;
  } catch (error) {
    io.stderr(`${NAME}: ${errorMessage(error)}\n`);
    return ExitCode.failed;
  }
}

function filesLine(files: string[], one: string, many: string): string {
  if (files.length === 0) return t('Nothing to apply: the worktree has no changes against its base.');
  return `${files.length === 1 ? one : many} ${files.join(', ')}`;
}

function listCommand(all: WorktreeStatus[], json: boolean, io: CliIo): ExitCode {
  if (json) {
    const rows = all.map(({ record, gone, files, unapplied, uncommitted }) => {
      const { name, branch, path, head, carried, created } = record;
      return { name, branch, path, base: head, carried, created, gone, files, unapplied, uncommitted };
    });
    io.stdout(`${JSON.stringify({ worktrees: rows })}\n`);
    return ExitCode.ok;
  }
  if (all.length === 0) io.stdout(`${t('No worktrees made by Loopwire in this repository.')}\n`);
  for (const { record, gone, files, unapplied, uncommitted } of all) {
    const state = gone
      ? t('gone (its folder was removed)')
      : unapplied
        ? t('{0} changed, not applied; {1} uncommitted', String(files.length), String(uncommitted))
        : files.length > 0
          ? t('{0} changed, applied', String(files.length))
          : t('no changes');
    io.stdout(`${record.name}  ${record.branch}  ${record.path}  ${state}\n`);
  }
  return ExitCode.ok;
}
