import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';

// Stops what a terminal's shell is running without stopping the shell: every process below it, by process
// group (an interactive shell gives each command line its own group, and a background `cmd &` inside it
// stays in that group even once its parent is gone), SIGTERM first, then SIGKILL. POSIX only: Loopwire runs
// commands through a terminal's shell only on POSIX systems (commandTerminal.ts).

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Exited, waiting for its parent (or the reaper it was left to) to collect it: it runs no more. */
  zombie: boolean;
}

/** `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so fields count from the last `)`. */
function parseStat(text: string): ProcessEntry | undefined {
  const close = text.lastIndexOf(')');
  const pid = Number.parseInt(text, 10);
  const [state, ppid, pgid] = text.slice(close + 2).split(' ');
  if (close < 0 || !Number.isInteger(pid)) return undefined;
  return { pid, ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' };
}

/** Every process of this machine, from /proc (Linux) or `ps` (macOS, BSD); undefined where neither answers. */
export async function listProcesses(): Promise<ProcessEntry[] | undefined> {
  const names = process.platform === 'linux' ? await fs.readdir('/proc').catch(() => undefined) : undefined;
  if (names) {
    const stats = await Promise.all(
      names
        .filter((name) => /^\d+$/.test(name))
        .map((name) => fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')),
    );
    return stats.map(parseStat).filter((entry): entry is ProcessEntry => entry !== undefined);
  }
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], (error, stdout) => {
      if (error) return resolve(undefined);
      const entries: ProcessEntry[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, ppid, pgid, state = ''] = line.trim().split(/\s+/);
        const numbers = [pid, ppid, pgid].map(Number);
        if (numbers.every(Number.isInteger))
          entries.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: state.startsWith('Z') });
      }
      resolve(entries);
    });
  });
}

/** The processes below `root` (not `root` itself). */
export function descendants(entries: readonly ProcessEntry[], root: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of entries) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: ProcessEntry[] = [];
  const queue = [root];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const child of children.get(parent) ?? []) {
      if (child.pid === root || found.includes(child)) continue;
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

const signal = (target: number, name: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(target, name);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops everything below the shell `shellPid` (the shell itself lives on): SIGTERM to each process group
 * below it and to any process of its own group, then SIGKILL to what is left after `graceMs`. Resolves false
 * when the processes could not be listed or nothing ran below the shell.
 */
export async function stopBelow(shellPid: number, graceMs = 2000): Promise<boolean> {
  const entries = await listProcesses();
  if (!entries) return false;
  const shellGroup = entries.find((entry) => entry.pid === shellPid)?.pgid ?? shellPid;
  const below = descendants(entries, shellPid);
  if (below.length === 0) return false;
  // A negative pid is a process group; a process of the shell's own group (job control off) goes alone.
  const targets = [
    ...new Set(below.map((entry) => (entry.pgid > 1 && entry.pgid !== shellGroup ? -entry.pgid : entry.pid))),
  ];
  for (const target of targets) signal(target, 'SIGTERM');
  // Done when no process of those groups (or those processes) runs; zombies have stopped already.
  const running = async () => {
    const now = (await listProcesses()) ?? [];
    return targets.some((target) =>
      now.some((entry) => !entry.zombie && (target < 0 ? entry.pgid === -target : entry.pid === target)),
    );
  };
  const deadline = Date.now() + graceMs;
  for (;;) {
    if (!(await running())) return true;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const target of targets) signal(target, 'SIGKILL');
  return true;
}
