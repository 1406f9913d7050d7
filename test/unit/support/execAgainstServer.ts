import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_SCENARIOS, type LoopwireServer, startServer } from '../../../src/server';
import { type ProcessResult, repoRoot, runProcess } from './runProcess';
import type { TempWorkspace } from './tempWorkspace';

// The built `loopwire exec` against the real server over a real socket, for each test of a suite, with the
// server's wire log (bodies included) to read what the model was sent.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const TOKEN = 'sk-exec-test';

/** A request as the server logged it. */
export interface SentBody {
  generate?: boolean;
  previous_response_id?: string;
  input: { role?: string; content: unknown }[];
}

export interface ExecAgainstServer {
  /** `loopwire exec ARGS` from `cwd` (the repository's root by default), on the test's server, with its key. */
  exec(args: readonly string[], cwd?: string): Promise<ProcessResult>;
  /** The bodies of the `response.create` requests the server received (it is closed first). */
  requests(): Promise<SentBody[]>;
}

/** Call in a `describe`: a server with the default scenarios for each test, its log in `temp`. */
export function useExecAgainstServer(temp: TempWorkspace): ExecAgainstServer {
  let server: LoopwireServer;
  let log: string;
  beforeEach(async () => {
    log = temp.path('wire.jsonl');
    server = await startServer({ token: TOKEN, scenarios: [DEFAULT_SCENARIOS], logFile: log, logBodies: true });
  });
  afterEach(() => server.close());
  return {
    exec: (args, cwd) =>
      runProcess(
        process.execPath,
        [bin, 'exec', '--sessions-dir', temp.path('sessions'), '--endpoint', server.url, ...args],
        '',
        { ...process.env, OPENAI_API_KEY: TOKEN },
        cwd === undefined ? {} : { cwd },
      ),
    async requests() {
      await server.close();
      return (await fs.readFile(log, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; body?: SentBody })
        .filter((line) => line.type === 'response.create')
        .flatMap((line) => (line.body ? [line.body] : []));
    },
  };
}
