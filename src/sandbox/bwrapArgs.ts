import * as fs from 'node:fs';
import * as path from 'node:path';
import { type WritePlan, isWithin } from './writePlan';

// bubblewrap's argv for one command (Linux). bwrap applies its options in order, each mount over what the
// earlier ones made, so the order below is the policy: the whole host read-only, then a private /tmp, then
// the workspace folders (after /tmp, since a workspace may live under it), then what stays read-only inside
// them, then what is hidden everywhere. Nothing secret goes on this argv, which /proc/<pid>/cmdline shows:
// the environment travels in the spawn's env.

/** A path to hide, as the mount that hides it needs to know it: a folder gets an empty one, anything else /dev/null. */
export interface HiddenMount {
  path: string;
  kind: 'dir' | 'file';
}

export interface BwrapInput {
  plan: WritePlan;
  hidden: readonly HiddenMount[];
  network: boolean;
  cwd: string;
  file: string;
  args: readonly string[];
}

const depth = (p: string) => p.split(path.sep).length;

/** The namespaces and process settings: what makes it a sandbox rather than a different view of the disk. */
function processOptions(network: boolean): string[] {
  return [
    // Its own process tree: /proc shows none of the host's processes (Loopwire's environ holds the key).
    '--unshare-pid',
    '--unshare-ipc',
    ...(network ? [] : ['--unshare-net']),
    // The sandbox ends with whoever started it, and a kill of bwrap takes its whole tree along.
    '--die-with-parent',
    // No --new-session: it would put the sandbox in a process group of its own, out of reach of the kill
    // sent to the spawn's group, and bwrap sets --die-with-parent only once its setup is done, so a command
    // stopped in its first milliseconds would run on for good. The caller's detached spawn gives the same
    // protection from TIOCSTI (a session without a terminal; the sandbox's /dev has none of the user's).
    // Run as root, bwrap would keep every capability (and with it, umount of the read-only binds).
    '--cap-drop',
    'ALL',
  ];
}

function rootMounts(plan: WritePlan): string[] {
  const roots = [
    ...plan.writable.map((root) => ({ root, flag: '--bind' })),
    ...plan.readOnly.map((root) => ({ root, flag: '--ro-bind' })),
  ].sort((a, b) => depth(a.root) - depth(b.root));
  return roots.flatMap(({ root, flag }) => [flag, root, root]);
}

function protectedMounts(plan: WritePlan): string[] {
  return [...plan.pinned.flatMap((p) => ['--bind', p, p]), ...plan.protectedPaths.flatMap((p) => ['--ro-bind', p, p])];
}

function hiddenMountArgs(hidden: readonly HiddenMount[]): string[] {
  return [...hidden]
    .sort((a, b) => depth(a.path) - depth(b.path))
    .flatMap(({ path: p, kind }) =>
      kind === 'dir' ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', '/dev/null', p],
    );
}

/** bwrap's arguments (everything after the program) for `input`. */
export function bwrapArgs(input: BwrapInput): string[] {
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...rootMounts(input.plan),
    ...protectedMounts(input.plan),
    ...hiddenMountArgs(input.hidden),
    ...processOptions(input.network),
    '--chdir',
    input.cwd,
    '--',
    input.file,
    ...input.args,
  ];
}

/**
 * Of `paths`, those that exist, as mounts (symlinks resolved: a mount lands on the target anyway). A path
 * that holds a workspace folder is left alone (the user works there), as is one inside another, hidden
 * already, or one under /tmp that no folder in `bound` (every folder bound over the private /tmp) shows again.
 */
export function hiddenMounts(
  paths: readonly string[],
  roots: readonly string[],
  bound: readonly string[] = roots,
): HiddenMount[] {
  const mounts = new Map<string, HiddenMount>();
  for (const p of paths) {
    let real: string;
    let stat: fs.Stats;
    try {
      real = fs.realpathSync(p);
      stat = fs.statSync(real);
    } catch {
      continue;
    }
    // The private /tmp hides what is in the host's, unless a root bound over it shows it again (a workspace
    // or a program's folder there, with the ssh agent's socket beside it): that stays hidden.
    const shown = bound.some((root) => isWithin(real, root));
    if ((isWithin(real, '/tmp') && !shown) || roots.some((root) => isWithin(root, real))) continue;
    mounts.set(real, { path: real, kind: stat.isDirectory() ? 'dir' : 'file' });
  }
  // Inside a hidden folder there is nothing left to hide (and no mount point to hide it on).
  const all = [...mounts.values()];
  return all.filter((mount) => !all.some((other) => other !== mount && isWithin(mount.path, other.path)));
}
