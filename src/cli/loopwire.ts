import { t } from './cliL10n';
import { type CliIo, ExitCode, VERSION, runMain } from './cliIo';

/** What a subcommand's module gives: its usage text and the function that runs it. */
interface Command {
  usage: string;
  run: (argv: string[], io: CliIo) => Promise<ExitCode>;
}

/**
 * One entry per subcommand. Each module is loaded only when its command runs (or its usage is asked for):
 * the bundle builds each one beside this bin (esbuild.js), so `--help` reads none of them and
 * `apply-patch` only the edit engine, not the agent, the server or the tokenizer.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  exec: {
    summary: t('run a task to completion on a folder (offline by default, against the bundled server)'),
    load: async () => {
      const m = await import('./exec/execMain');
      return { usage: m.execUsage, run: (argv, io) => m.execCommand(argv, io) };
    },
  },
  demo: {
    summary: t('run the demo task (fix a failing test) on a copy of the demo workspace'),
    load: async () => {
      const m = await import('./demoCommand');
      return { usage: m.demoUsage, run: m.demoCommand };
    },
  },
  validate: {
    summary: t('check Responses API wire data (requests, events, items) against the protocol schemas'),
    load: async () => {
      const m = await import('./validateCommand');
      return { usage: m.validateUsage, run: m.validateCommand };
    },
  },
  'apply-patch': {
    summary: t('apply an apply_patch patch from stdin to the files under --cwd, all or nothing'),
    load: async () => {
      const m = await import('./applyPatchCommand');
      return { usage: m.applyPatchUsage, run: m.applyPatchCommand };
    },
  },
  worktree: {
    summary: t('list, apply or discard the git worktrees of loopwire exec --worktree'),
    load: async () => {
      const m = await import('./worktreeCommand');
      return { usage: m.worktreeUsage, run: m.worktreeCommand };
    },
  },
  tool: {
    summary: t("run one of the agent's tools on a folder (find_files, read_file, run_task, …)"),
    load: async () => {
      const m = await import('./toolCommand');
      return { usage: m.toolUsage, run: m.toolCommand };
    },
  },
};

const usage = `${t('usage: loopwire <command> [options]')}

${t('Loopwire {0}: a coding agent over one persistent WebSocket to the Responses API.', VERSION)}

${t('Commands:')}
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join('\n')}

${t('Options:')}
  -h, --help     ${t("show this help (or a command's: loopwire <command> --help)")}
  -v, --version  ${t('print the version')}

${t('Exit status: 0 done, 1 the work failed, 2 bad usage.')}
`;

async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(usage);
    return ExitCode.usage;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    io.stdout(topic ? (await topic.load()).usage : usage);
    return ExitCode.ok;
  }
  if (first === '-v' || first === '--version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const command = COMMANDS[first];
  if (!command) {
    io.stderr(`loopwire: ${t("unknown command '{0}'", first)}\n\n${usage}`);
    return ExitCode.usage;
  }
  return (await command.load()).run(rest, io);
}

runMain(main);
