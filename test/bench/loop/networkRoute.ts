import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import type { NetworkProfile, RunNetwork } from './benchTypes';
import { type NetemCounters } from './netemProxy';
import { NetemReply, type NetemRequest } from './netemWire';
import { type ServerProcess, TOKEN } from './serverProcess';

// How the bench reaches its server on one network profile: straight to it on loopback, or through the
// network proxy (netemProxy.ts, in its own process) on `wan`. A route counts what crossed its proxy over
// each task, so a run row can say how many connections and bytes a task cost on the line.

export interface Route {
  profile: NetworkProfile;
  /** The server as the agent reaches it: its URL through the proxy; stats and CPU time still its own. */
  server: ServerProcess;
  /** Runs `task` and returns its value with what crossed the proxy meanwhile (null on loopback). */
  counted<T>(task: (server: ServerProcess) => Promise<T>): Promise<{ value: T; wire: NetemCounters | null }>;
  /** The median of `rounds` small requests on one kept connection: the line's own round trip, as measured. */
  measureRttMs(rounds?: number): Promise<number>;
  close(): Promise<void>;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Opens the route for `profile` to `server`. */
export async function openRoute(server: ServerProcess, profile: NetworkProfile): Promise<Route> {
  const proxy = profile.name === 'loopback' ? undefined : await forkProxy(server.url, profile);
  const url = proxy ? server.url.replace(/\/\/127\.0\.0\.1:\d+/, `//127.0.0.1:${proxy.port}`) : server.url;
  const routed: ServerProcess = { ...server, url };
  return {
    profile,
    server: routed,
    counted: async (task) => {
      const before = proxy ? await proxy.counters() : undefined;
      const value = await task(routed);
      if (!proxy || !before) return { value, wire: null };
      const after = await proxy.counters();
      return {
        value,
        wire: {
          connections: after.connections - before.connections,
          bytesUp: after.bytesUp - before.bytesUp,
          bytesDown: after.bytesDown - before.bytesDown,
        },
      };
    },
    measureRttMs: async (rounds = 15) => {
      const admin = `${url.replace(/\/v1$/, '')}/admin/stats`;
      const times: number[] = [];
      // The first request opens the connection (a handshake more); the others reuse it, as fetch keeps it.
      for (let i = 0; i <= rounds; i++) {
        const start = performance.now();
        const response = await fetch(admin, { headers: { authorization: `Bearer ${TOKEN}` } });
        await response.arrayBuffer();
        if (i > 0) times.push(performance.now() - start);
      }
      return median(times);
    },
    close: async () => proxy?.close(),
  };
}

/** A run row's network: the profile, and the medians of what crossed the proxy per task. */
export function runNetwork(profile: NetworkProfile, wires: ReadonlyArray<NetemCounters | null>): RunNetwork {
  const counted = wires.filter((w): w is NetemCounters => w !== null);
  const of = (pick: (w: NetemCounters) => number) => (counted.length ? median(counted.map(pick)) : null);
  return {
    ...profile,
    connections_per_task: of((w) => w.connections),
    bytes_up_per_task: of((w) => w.bytesUp),
    bytes_down_per_task: of((w) => w.bytesDown),
  };
}

interface ProxyProcess {
  port: number;
  counters(): Promise<NetemCounters>;
  close(): Promise<void>;
}

async function forkProxy(serverUrl: string, profile: NetworkProfile): Promise<ProxyProcess> {
  const target = new URL(serverUrl);
  const bps = (mbit: number | null) => (mbit === null ? null : mbit * 1_000_000);
  const start = {
    host: target.hostname,
    port: Number(target.port),
    rttMs: profile.rtt_ms,
    uplinkBitsPerSecond: bps(profile.uplink_mbit),
    downlinkBitsPerSecond: bps(profile.downlink_mbit),
  };
  // The tsx loader this process runs under (`npm run bench` is tsx), so the child runs TypeScript too.
  const child: ChildProcess = fork(path.join(__dirname, 'netemProxyMain.ts'), [JSON.stringify(start)], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (counters: NetemCounters) => void>();
  let nextId = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (raw: unknown) => {
      const reply = NetemReply.parse(raw);
      if (reply.type === 'listening') resolve(reply.port);
      else {
        waiting.get(reply.id)?.({ connections: reply.connections, bytesUp: reply.bytesUp, bytesDown: reply.bytesDown });
        waiting.delete(reply.id);
      }
    });
    child.once('exit', (code) => reject(new Error(`the network proxy exited (${code}) before it listened`)));
  });
  const send = (request: NetemRequest) => child.send(request);
  return {
    port,
    counters: () =>
      new Promise<NetemCounters>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        send({ type: 'counters', id });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        send({ type: 'close' });
      }),
  };
}
