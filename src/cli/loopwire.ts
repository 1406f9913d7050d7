import { applyPatchCommand, applyPatchUsage } from './applyPatchCommand';
import { demoCommand, demoUsage } from './demoCommand';
import { execCommand, execUsage } from './execCommand';
import { type CliIo, ExitCode, VERSION, runMain } from './cliIo';
import { toolCommand, toolUsage } from './toolCommand';
import { validateCommand, validateUsage } from './validateCommand';

/** One entry per subcommand. */
const COMMANDS: Record<
  string,
  { summary: string; usage: string; run: (argv: string[], io: CliIo) => Promise<ExitCode> }
> = {
  exec: {
    summary: 'run a task to completion on a folder (offline by default, against the bundled server)',
    usage: execUsage,
    run: execCommand,
  },
  demo: {
    summary: 'run the demo task (fix a failing test) on a copy of the demo workspace',
    usage: demoUsage,
    run: demoCommand,
  },
  validate: {
    summary: 'check Responses API wire data (requests, events, items) against the protocol schemas',
    usage: validateUsage,
    run: validateCommand,
  },
  'apply-patch': {
    summary: 'apply an apply_patch patch from stdin to the files under --cwd, all or nothing',
    usage: applyPatchUsage,
    run: applyPatchCommand,
  },
  tool: {
    summary: "run one of the agent's tools on a folder (find_files, read_file, run_task, …)",
    usage: toolUsage,
    run: toolCommand,
  },
};

const usage = `usage: loopwire <command> [options]

Loopwire ${VERSION}: a coding agent over one persistent WebSocket to the Responses API.

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join('\n')}

Options:
  -h, --help     show this help (or a command's: loopwire <command> --help)
  -v, --version  print the version

Exit status: 0 done, 1 the work failed, 2 bad usage.
`;

async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(usage);
    return ExitCode.usage;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    io.stdout(topic ? topic.usage : usage);
    return ExitCode.ok;
  }
  if (first === '-v' || first === '--version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const command = COMMANDS[first];
  if (!command) {
    io.stderr(`loopwire: unknown command '${first}'\n\n${usage}`);
    return ExitCode.usage;
  }
  return command.run(rest, io);
}

runMain(main);
