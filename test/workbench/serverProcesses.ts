import * as fs from 'node:fs';

// The processes a workbench window starts on a shared code-server (shared.ts): its extension host (and what
// that runs: the embedded backend's tasks, a Loopwire terminal's command) and the shells of its terminals,
// which the server's pty host runs. A window that closes leaves them for the server's reconnection grace
// time; the harness ends them when the suite ends, as stopping a server of its own would. Read from /proc.

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command's name, in parentheses, may hold spaces: the fields after it are counted from its end.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      found.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // It ended while being read.
    }
  }
  return found;
}

/** `root` and every process under it. */
function descendants(all: Proc[], root: number): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const proc of all) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc]);
  const found: Proc[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child.pid);
    }
  };
  visit(root);
  return found;
}

/** The windows' own processes under `server`: extension hosts and the shells the pty host runs. */
export function windowProcesses(server: number): Set<number> {
  const all = processes();
  const under = descendants(all, server);
  const own = new Set<number>();
  for (const proc of under) {
    if (proc.cmdline.includes('--type=extensionHost')) own.add(proc.pid);
    else if (under.some((parent) => parent.pid === proc.ppid && parent.cmdline.includes('--type=ptyHost')))
      own.add(proc.pid);
  }
  return own;
}

/** Ends the windows' processes under `server` that were not in `before`, with everything under them. */
export function endWindowProcesses(server: number, before: Set<number>): number {
  const all = processes();
  let ended = 0;
  for (const pid of windowProcesses(server)) {
    if (before.has(pid)) continue;
    for (const proc of [...descendants(all, pid).reverse(), { pid }]) {
      try {
        process.kill(proc.pid, 'SIGKILL');
        ended++;
      } catch {
        // Gone already.
      }
    }
  }
  return ended;
}
