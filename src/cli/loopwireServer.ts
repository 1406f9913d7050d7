import { type CliIo, ExitCode, VERSION, runMain } from './cliIo';

const usage = `usage: loopwire-server [options]

Loopwire ${VERSION}: the bundled Responses API backend (HTTP+SSE and WebSocket mode on one port,
a scripted model, for offline use, tests and the benchmark).

This build carries the entry point only; serving lands with the backend (src/server).

Options:
  -h, --help     show this help
  -v, --version  print the version
`;

function main(argv: string[], io: CliIo): ExitCode {
  const [first] = argv;
  if (first === '-h' || first === '--help') {
    io.stdout(usage);
    return ExitCode.ok;
  }
  if (first === '-v' || first === '--version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  if (first !== undefined) {
    io.stderr(`loopwire-server: unknown option '${first}'\n\n${usage}`);
    return ExitCode.usage;
  }
  io.stderr('loopwire-server: this build has no server yet (src/server is still to come); see --help\n');
  return ExitCode.failed;
}

runMain(main);
