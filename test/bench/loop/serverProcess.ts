import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerStats, TurnRecord } from '../../../src/server';

// The bundled server as the benchmark runs it: its own process (the real `loopwire-server` bin), so that
// its CPU time is its own, with the admin endpoint for its per-turn work counters. The long mode runs the
// same server from source with an observer (observedServerMain.ts) that reports every response's record.

const repoRoot = path.resolve(__dirname, '../../..');
export const TOKEN = 'bench-token';

export interface ServerProcess {
  url: string;
  stats(): Promise<ServerStats>;
  /** CPU time the process has used, in ms (Linux: /proc; elsewhere 0). */
  cpuMs(): number;
  close(): Promise<void>;
}

/** `auth: false` serves without a token (the panel bench's extension, which has no API key, is the client). */
export async function startServerProcess(args: string[], options: { auth?: boolean } = {}): Promise<ServerProcess> {
  const bin = path.join(repoRoot, 'dist/cli/loopwire-server.js');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
  return launch([bin, ...(options.auth === false ? [] : ['--token', TOKEN]), ...args]);
}

/** What the long mode's server is started with (observedServerMain.ts reads it as JSON). */
export interface ObservedOptions {
  scenarioFile: string;
  tps: number;
  prefillUsPerToken: number;
  contextWindow: number;
}

/** The server, from source, in its own process, reporting each response's record as it is answered. */
export async function startObservedServer(
  options: ObservedOptions,
): Promise<ServerProcess & { readonly records: TurnRecord[] }> {
  const records: TurnRecord[] = [];
  const entry = path.join(__dirname, 'observedServerMain.ts');
  // The tsx loader this process runs under (`npm run bench` is tsx), so the child runs TypeScript too.
  const server = await launch([...process.execArgv, entry, JSON.stringify({ ...options, token: TOKEN })], (line) =>
    records.push(JSON.parse(line) as TurnRecord),
  );
  return { ...server, records };
}

/** Spawns node with `argv`; its first stdout line is the base URL, and each later one goes to `onLine`. */
async function launch(argv: string[], onLine?: (line: string) => void): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let first: string | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = out.slice(0, end);
        out = out.slice(end + 1);
        if (first === undefined) resolve((first = line));
        else onLine?.(line);
      }
    });
    child.on('exit', (code) => reject(new Error(`loopwire-server exited (${code}): ${stderr}`)));
  });
  const admin = url.replace(/\/v1$/, '');
  const ticks = 100; // USER_HZ on Linux
  return {
    url,
    stats: async () => {
      const response = await fetch(`${admin}/admin/stats`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return (await response.json()) as ServerStats;
    },
    cpuMs: () => {
      try {
        const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1000;
      } catch {
        return 0;
      }
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
