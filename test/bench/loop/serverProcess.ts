import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerStats } from '../../../src/server';

// The bundled server as the benchmark runs it: its own process (the real `loopwire-server` bin), so that
// its CPU time is its own, with the admin endpoint for its per-turn work counters.

const repoRoot = path.resolve(__dirname, '../../..');
export const TOKEN = 'bench-token';

export interface ServerProcess {
  url: string;
  stats(): Promise<ServerStats>;
  /** CPU time the process has used, in ms (Linux: /proc; elsewhere 0). */
  cpuMs(): number;
  close(): Promise<void>;
}

export async function startServerProcess(args: string[]): Promise<ServerProcess> {
  const bin = path.join(repoRoot, 'dist/cli/loopwire-server.js');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
  const child: ChildProcess = spawn(process.execPath, [bin, '--token', TOKEN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
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
