import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bwrapArgs } from './bwrapArgs';

// Whether this machine can confine commands, and with what. Asked once per platform and remembered: the
// probe is a real run of the mechanism on `true` with the options every command gets, because an installed
// bwrap can still be refused by the kernel (unprivileged user namespaces turned off, an AppArmor rule) and
// only a run says so. `LOOPWIRE_SANDBOX=off` turns it off, read on every call, so tests can see the fallback.

export type SandboxMechanism = 'bwrap' | 'seatbelt';

export type SandboxSupport =
  | { available: true; mechanism: SandboxMechanism; /** The program's absolute path. */ program: string }
  | {
      available: false;
      /** Why, in one English sentence (the platform, the missing program, bwrap's own error). */
      reason: string;
      /** How to get one, where there is a way (`apt install bubblewrap`). */
      hint?: string;
    };

/** Only this one: a sandbox-exec found on PATH could be anyone's. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const PROBE_TIMEOUT_MS = 5000;
const TIMED_OUT = 'ETIMEDOUT';
const INSTALL_BUBBLEWRAP = 'install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`)';

const cache = new Map<NodeJS.Platform, SandboxSupport>();

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** bwrap on PATH (absolute entries only: a relative one would depend on the folder a command runs in). */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env['PATH'] ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  return [...dirs, '/usr/bin'].map((dir) => path.join(dir, 'bwrap')).find(isExecutable);
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  );
}

/** A real confinement of `true`, as a command would get it (network off, the most a command is refused). */
function probeBwrap(program: string): SandboxSupport {
  const plan = { writable: [], readOnly: [], pinned: [], protectedPaths: [], warnings: [] };
  const args = bwrapArgs({ plan, hidden: [], network: false, cwd: '/', file: 'true', args: [] });
  const run = spawnSync(program, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: 'pipe' });
  if (run.status === 0) return { available: true, mechanism: 'bwrap', program };
  const said = run.error ? run.error.message : firstLine(run.stderr) || `it exited with ${run.status ?? run.signal}`;
  const namespaces = /namespace|permission|not permitted|setting up uid map/i.test(said);
  return {
    available: false,
    reason: `bubblewrap (${program}) cannot make a sandbox here: ${said}`,
    hint: namespaces
      ? 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 23.10 and later, an AppArmor profile that lets bwrap use them)'
      : INSTALL_BUBBLEWRAP,
  };
}

function linuxSupport(): SandboxSupport {
  const program = findBwrap();
  if (!program) return { available: false, reason: 'bubblewrap (bwrap) is not installed.', hint: INSTALL_BUBBLEWRAP };
  return probeBwrap(program);
}

function macSupport(): SandboxSupport {
  if (!isExecutable(SANDBOX_EXEC)) {
    return { available: false, reason: `macOS's sandbox-exec is missing (${SANDBOX_EXEC}).` };
  }
  const run = spawnSync(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (run.status === 0) return { available: true, mechanism: 'seatbelt', program: SANDBOX_EXEC };
  return {
    available: false,
    reason: `sandbox-exec cannot make a sandbox here: ${run.error?.message ?? firstLine(run.stderr)}`,
  };
}

function probe(platform: NodeJS.Platform): SandboxSupport {
  if (platform === 'linux') return linuxSupport();
  if (platform === 'darwin') return macSupport();
  if (platform === 'win32') {
    return {
      available: false,
      reason: 'There is no sandbox for commands on Windows yet: Loopwire confines them on Linux and macOS only.',
    };
  }
  return {
    available: false,
    reason: `There is no sandbox for commands on ${platform}: only Linux and macOS have one.`,
  };
}

/** This machine's support, probed once (a real run of the mechanism on `true`) and cached. Synchronous. */
export function sandboxSupport(platform: NodeJS.Platform = process.platform): SandboxSupport {
  if (process.env['LOOPWIRE_SANDBOX'] === 'off') {
    return { available: false, reason: 'The sandbox is turned off by LOOPWIRE_SANDBOX=off.' };
  }
  let support = cache.get(platform);
  if (!support) {
    support = probe(platform);
    // A probe that ran out of time says only that the machine was busy: the next call asks again.
    if (support.available || !support.reason.includes(TIMED_OUT)) cache.set(platform, support);
  }
  return support;
}
