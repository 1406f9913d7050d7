import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DEFAULTS,
  DEFAULT_SCENARIOS,
  type ScenarioFile,
  ScenarioFileError,
  type StartOptions,
  loadScenarioFile,
  startServer,
} from '../server';
import { type CliIo, ExitCode, VERSION, errorMessage, runMain } from './cliIo';
import { t } from './cliL10n';

/** The environment variable a token may come from instead of a flag. */
const TOKEN_ENV = 'LOOPWIRE_SERVER_TOKEN';

const usage = `${t('usage: {0}', 'loopwire-server [--host 127.0.0.1] [--port 0] [--token-file FILE | --token T]\n                       [--scenario FILE]... [--no-default-scenarios] [--tps N] [--store-dir DIR]\n                       [--log FILE] [--log-bodies FILE] [--max-connection-s S] [--prefill-us-per-token U]\n                       [--context-window N]')}

${t('Loopwire {0}: the bundled Responses API backend. HTTP+SSE and WebSocket mode on one port, a\nscripted model, simulated inference. Prints its base URL (http://HOST:PORT/v1) as the first line on\nstdout, logs to stderr, and serves until SIGINT or SIGTERM.', VERSION)}

${t('Options:')}
  --host H                    ${t('interface to bind (default {0})', DEFAULTS.host)}
  --port N                    ${t('port, 0 for any free one (default {0})', DEFAULTS.port)}
  --token-file FILE           ${t('require "Authorization: Bearer T" on every request, T being the first line\n                              of FILE (trimmed); enables /admin')}
  --token T                   ${t('the same with T on the command line, where other users of this machine can\n                              read it in the process list: prefer --token-file or {0}', TOKEN_ENV)}
  --scenario FILE             ${t('a scenario file (repeatable; first match wins, in the order given), loaded\n                              before the default scenarios (the ones loopwire exec uses offline)')}
  --no-default-scenarios      ${t('serve only the --scenario files')}
  --tps N                     ${t('simulated output tokens per second (default {0})', DEFAULTS.tps)}
  --prefill-us-per-token U    ${t('simulated prefill per uncached input token, in µs (default {0})', DEFAULTS.prefillUsPerToken)}
  --store-dir DIR             ${t('keep store:true responses on disk in DIR (default: in memory)')}
  --log FILE                  ${t('append the wire log (one JSON line per request, event, frame) to FILE')}
  --log-bodies FILE           ${t('append one JSON line per request to FILE: its transport and its body as\n                              received (what the model is told: instructions, tools, context items)')}
  --max-connection-s S        ${t('WebSocket connection age limit in seconds (default {0})', DEFAULTS.maxConnectionS)}
  --context-window N          ${t("the model's context window in input tokens: a request whose rendered input\n                              is larger is refused with context_length_exceeded (default {0},\n                              the input window of the GPT-5 family)", DEFAULTS.contextWindow)}
  -h, --help                  ${t('show this help')}
  -v, --version               ${t('print the version')}

${t('Environment:')}
  ${TOKEN_ENV}       ${t('the token, when neither --token-file nor --token is given')}
`;

function number(name: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || (integer && !Number.isInteger(parsed)))
    throw new UsageError(`--${name} expects a ${integer ? 'whole ' : ''}non-negative number, got '${value}'`);
  return parsed;
}

class UsageError extends Error {}

/** A token source given but unusable (an unreadable or empty file, an empty variable): exit 1. */
class TokenSourceError extends Error {}

/**
 * The token and where it came from: `--token-file`, else `--token`, else the environment — a flag, given for
 * this run, beats the environment. Both flags at once is a usage error rather than a silent choice.
 */
function resolveToken(
  flag: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): { token: string; source: string } | undefined {
  if (flag !== undefined && file !== undefined) throw new UsageError('give the token once: --token-file or --token');
  if (flag === '') throw new UsageError('--token must not be empty');
  if (file === '') throw new UsageError('--token-file must not be empty');
  if (file !== undefined) return { token: readTokenFile(file), source: `--token-file ${file}` };
  if (flag !== undefined) return { token: flag, source: '--token' };
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv === undefined) return undefined;
  const token = fromEnv.trim();
  if (token === '') throw new TokenSourceError(`${TOKEN_ENV} is set but empty; unset it to run without a token`);
  return { token, source: TOKEN_ENV };
}

/** The first line of `file`, trimmed; a file that cannot be read or whose first line is blank is an error. */
function readTokenFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new TokenSourceError(`--token-file ${file}: cannot read: ${errorMessage(error)}`);
  }
  const token = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  if (token === '') throw new TokenSourceError(`--token-file ${file}: its first line is empty; put the token there`);
  return token;
}

/** How a user of this front end adds a scenario: the end of the answer to a prompt no scenario matches. */
const SCENARIO_HINT = 'start loopwire-server with --scenario FILE';

/** The server's options and a line saying how many scenarios came from where. */
interface Parsed {
  options: StartOptions;
  scenarioSources: string;
  /** Where the token came from (never the token itself), when there is one. */
  tokenSource: string | undefined;
}

/** `12 scenario(s): 2 from a.json, 10 default`: which files the scripted model answers from. */
function describeScenarios(files: readonly { source: string; file: ScenarioFile }[]): string {
  const total = files.reduce((sum, { file }) => sum + file.scenarios.length, 0);
  const parts = files.map(({ source, file }) => `${file.scenarios.length} ${source}`);
  return `${total} scenario(s)${parts.length > 0 ? `: ${parts.join(', ')}` : ' (every prompt gets the no-match answer)'}`;
}

/**
 * The options the flags (and the environment) ask for; throws UsageError on a bad flag, ScenarioFileError on a
 * bad scenario file, TokenSourceError on an unusable token source.
 */
function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Parsed | 'help' | 'version' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      scenario: { type: 'string', multiple: true },
      'no-default-scenarios': { type: 'boolean' },
      tps: { type: 'string' },
      'store-dir': { type: 'string' },
      log: { type: 'string' },
      'log-bodies': { type: 'string' },
      'max-connection-s': { type: 'string' },
      'prefill-us-per-token': { type: 'string' },
      'context-window': { type: 'string' },
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
  const contextWindow = number('context-window', values['context-window'], true);
  if (contextWindow === 0) throw new UsageError('--context-window must be above 0');
  const token = resolveToken(values.token, values['token-file'], env);
  // Files first so that theirs win; then the defaults, so that this server answers what `loopwire exec`'s
  // embedded one does.
  const files = [
    ...(values.scenario ?? []).map((file) => ({ source: `from ${file}`, file: loadScenarioFile(file) })),
    ...(values['no-default-scenarios'] ? [] : [{ source: 'default', file: DEFAULT_SCENARIOS }]),
  ];
  const options: StartOptions = {
    host: values.host,
    port,
    token: token?.token,
    scenarios: files.map(({ file }) => file),
    scenarioHint: SCENARIO_HINT,
    tps,
    prefillUsPerToken: number('prefill-us-per-token', values['prefill-us-per-token'], false),
    storeDir: values['store-dir'],
    logFile: values.log,
    bodyLogFile: values['log-bodies'],
    maxConnectionS,
    contextWindow,
  };
  return { options, scenarioSources: describeScenarios(files), tokenSource: token?.source };
}

async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv, process.env);
  } catch (error) {
    if (error instanceof ScenarioFileError || error instanceof TokenSourceError) {
      io.stderr(`loopwire-server: ${error.message}\n`);
      return ExitCode.failed;
    }
    io.stderr(`loopwire-server: ${errorMessage(error)}\n\n${usage}`);
    return ExitCode.usage;
  }
  if (parsed === 'help') {
    io.stdout(usage);
    return ExitCode.ok;
  }
  if (parsed === 'version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  io.stderr(`loopwire-server: ${parsed.scenarioSources}\n`);
  if (parsed.tokenSource !== undefined)
    io.stderr(`loopwire-server: every request needs the bearer token from ${parsed.tokenSource}\n`);
  const server = await startServer({ ...parsed.options, log: (line) => io.stderr(`${line}\n`) });
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
