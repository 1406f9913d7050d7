import { parseArgs } from 'node:util';
import { DEFAULTS, ScenarioFileError, type StartOptions, loadScenarioFile, startServer } from '../server';
import { type CliIo, ExitCode, VERSION, errorMessage, runMain } from './cliIo';

const usage = `usage: loopwire-server [--host 127.0.0.1] [--port 0] [--token T] [--scenario FILE]... [--tps N]
                       [--store-dir DIR] [--log FILE] [--max-connection-s S] [--prefill-us-per-token U]

Loopwire ${VERSION}: the bundled Responses API backend. HTTP+SSE and WebSocket mode on one port, a
scripted model, simulated inference. Prints its base URL (http://HOST:PORT/v1) as the first line on
stdout, logs to stderr, and serves until SIGINT or SIGTERM.

Options:
  --host H                    interface to bind (default ${DEFAULTS.host})
  --port N                    port, 0 for any free one (default ${DEFAULTS.port})
  --token T                   require "Authorization: Bearer T" on every request; enables /admin
  --scenario FILE             a scenario file (repeatable; first match wins, in the order given)
  --tps N                     simulated output tokens per second (default ${DEFAULTS.tps})
  --prefill-us-per-token U    simulated prefill per uncached input token, in µs (default ${DEFAULTS.prefillUsPerToken})
  --store-dir DIR             keep store:true responses on disk in DIR (default: in memory)
  --log FILE                  append the wire log (one JSON line per request, event, frame) to FILE
  --max-connection-s S        WebSocket connection age limit in seconds (default ${DEFAULTS.maxConnectionS})
  -h, --help                  show this help
  -v, --version               print the version
`;

function number(name: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || (integer && !Number.isInteger(parsed)))
    throw new UsageError(`--${name} expects a ${integer ? 'whole ' : ''}non-negative number, got '${value}'`);
  return parsed;
}

class UsageError extends Error {}

/** The options the flags ask for; throws UsageError on a bad flag. */
function parseOptions(argv: string[]): StartOptions | 'help' | 'version' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      scenario: { type: 'string', multiple: true },
      tps: { type: 'string' },
      'store-dir': { type: 'string' },
      log: { type: 'string' },
      'max-connection-s': { type: 'string' },
      'prefill-us-per-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  const port = number('port', values.port, true);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const tps = number('tps', values.tps, false);
  if (tps === 0) throw new UsageError('--tps must be above 0');
  const maxConnectionS = number('max-connection-s', values['max-connection-s'], false);
  if (maxConnectionS === 0) throw new UsageError('--max-connection-s must be above 0');
  if (values.token === '') throw new UsageError('--token must not be empty');
  return {
    host: values.host,
    port,
    token: values.token,
    scenarios: (values.scenario ?? []).map(loadScenarioFile),
    tps,
    prefillUsPerToken: number('prefill-us-per-token', values['prefill-us-per-token'], false),
    storeDir: values['store-dir'],
    logFile: values.log,
    maxConnectionS,
  };
}

async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (error instanceof ScenarioFileError) {
      io.stderr(`loopwire-server: ${error.message}\n`);
      return ExitCode.failed;
    }
    io.stderr(`loopwire-server: ${errorMessage(error)}\n\n${usage}`);
    return ExitCode.usage;
  }
  if (options === 'help') {
    io.stdout(usage);
    return ExitCode.ok;
  }
  if (options === 'version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const server = await startServer({ ...options, log: (line) => io.stderr(`${line}\n`) });
  // The contract: the base URL is the first line on stdout, and nothing else is ever written there.
  io.stdout(`${server.url}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.stderr(`loopwire-server: ${signal}, shutting down\n`);
  await server.close();
  return ExitCode.ok;
}

runMain(main);
