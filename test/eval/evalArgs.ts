// `npm run eval -- [options]`: the flags, read and checked. A bad flag is a usage error (exit 2), named.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { TRANSPORTS, type Transport } from './evalTypes';

export const USAGE = `usage: npm run eval -- [options]

Runs the coding tasks of test/eval/tasks with loopwire exec, each in a fresh copy of its project, over
WebSocket and HTTP, then each task's check script; prints a table and exits 0 only when every task passed.
Without --endpoint the model is the embedded backend's scripted one, playing each task's solution offline.

  --endpoint URL    a Responses API base URL (https://api.openai.com/v1; the key from OPENAI_API_KEY);
                    default: embedded, offline, with the scripted solutions
  --model M         the model (default: loopwire exec's)
  --transport T     ws or http (repeatable; default both)
  --task NAME       run only this task (repeatable)
  --json FILE       write the results as JSON to FILE, and an HTML report beside it (FILE with .html)
  --runs N          run each task N times over each transport (default 1; a real model's path varies)
  --jobs N          runs at a time (default 1: the timings are cleanest one at a time)
  --max-turns N     model responses at most per run (default 40)
  --timeout-s S     stop a run after S seconds (default 60 offline, 600 with an endpoint)
  --exec-arg ARG    pass ARG to every loopwire exec (repeatable), e.g. --exec-arg=--reasoning-effort=high
  --keep            keep each run's workspace copy (their paths are printed)
  --cli FILE        the loopwire bin to run (default: dist/cli/loopwire.js of this clone)
  --help            this text`;

/** The bin `npm run eval` builds first. */
export const DEFAULT_CLI = path.resolve(__dirname, '../../dist/cli/loopwire.js');

export interface EvalOptions {
  endpoint: string | undefined;
  model: string | undefined;
  transports: Transport[];
  tasks: string[];
  json: string | undefined;
  runs: number;
  jobs: number;
  maxTurns: number;
  timeoutS: number;
  execArgs: string[];
  keep: boolean;
  /** The built CLI: dist/cli/loopwire.js, or --cli FILE. */
  cli: string;
}

export class UsageError extends Error {}

/** Reads the eval's flags from `argv` (no `node script` in front); `help` when --help was given. */
export function readEvalArgs(argv: readonly string[]): EvalOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        endpoint: { type: 'string' },
        model: { type: 'string' },
        transport: { type: 'string', multiple: true },
        task: { type: 'string', multiple: true },
        json: { type: 'string' },
        runs: { type: 'string' },
        jobs: { type: 'string' },
        'max-turns': { type: 'string' },
        'timeout-s': { type: 'string' },
        'exec-arg': { type: 'string', multiple: true },
        keep: { type: 'boolean' },
        cli: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const flags = parsed.values;
  if (flags.help) return 'help';
  const endpoint = flags.endpoint === 'embedded' ? undefined : flags.endpoint;
  if (endpoint !== undefined && !/^(https?|wss?):\/\//.test(endpoint))
    throw new UsageError(`--endpoint must be a URL such as https://api.openai.com/v1, not '${endpoint}'`);
  return {
    endpoint,
    model: flags.model,
    transports: transportsOf(flags.transport),
    tasks: flags.task ?? [],
    json: flags.json === undefined ? undefined : path.resolve(invokedFrom(), flags.json),
    runs: wholeNumber('--runs', flags.runs, 1),
    jobs: wholeNumber('--jobs', flags.jobs, 1),
    maxTurns: wholeNumber('--max-turns', flags['max-turns'], 40),
    timeoutS: wholeNumber('--timeout-s', flags['timeout-s'], endpoint === undefined ? 60 : 600),
    execArgs: flags['exec-arg'] ?? [],
    keep: flags.keep ?? false,
    cli: flags.cli === undefined ? DEFAULT_CLI : path.resolve(invokedFrom(), flags.cli),
  };
}

function transportsOf(given: string[] | undefined): Transport[] {
  if (given === undefined) return [...TRANSPORTS];
  return given.map((value) => {
    const transport = TRANSPORTS.find((known) => known === value);
    if (transport === undefined) throw new UsageError(`--transport must be ws or http, not '${value}'`);
    return transport;
  });
}

function wholeNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new UsageError(`${flag} must be a whole number above 0, not '${value}'`);
  return number;
}

/** Where the user typed the command: npm runs a script from the package's root and says where in INIT_CWD. */
function invokedFrom(): string {
  return process.env['INIT_CWD'] ?? process.cwd();
}
