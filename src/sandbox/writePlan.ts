import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Confinement, PROTECTED_FOLDERS } from './policy';

// What a confinement may write, worked out on disk: the workspace folders as they really are (symlinks
// resolved), and inside each writable one the protected folders (PROTECTED_FOLDERS) that must stay read-only.
// A mount can keep a folder read-only only where something exists to mount on, and only the mount point
// itself resists being renamed or removed; so a missing protected folder gets an empty folder made for it
// (removed again after the run), and a folder between the root and a nested protected path (`.github` for
// `.github/hooks`) is pinned with a mount of its own, or the command would rename it away and make a new one.

export interface WritePlan {
  /** Folders written in this run (real paths), shallowest first. */
  writable: string[];
  /** Folders read only: every root in read-only, and a root whose protected folder could not be kept. */
  readOnly: string[];
  /** Paths between a writable root and a nested protected path, mounted on themselves (writable, but fixed). */
  pinned: string[];
  /** The protected paths inside writable roots, mounted read-only (those missing are made empty before the run). */
  protectedPaths: string[];
  /** What the run should know: a root made read-only and why. */
  warnings: string[];
}

const depth = (p: string) => p.split(path.sep).length;

/** `roots` with symlinks resolved, those that exist, shallowest first. */
export function realRoots(roots: readonly string[]): string[] {
  const real = roots.flatMap((root) => {
    try {
      return [fs.realpathSync(root)];
    } catch {
      // A folder that is not there has nothing to write or protect; the command sees what the host has.
      return [];
    }
  });
  return [...new Set(real)].sort((a, b) => depth(a) - depth(b));
}

type Entry = 'missing' | 'symlink' | 'dir' | 'other';

function entryAt(p: string): Entry {
  try {
    const stat = fs.lstatSync(p);
    return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

interface RootProtection {
  pinned: string[];
  protectedPath?: string;
  /** The symlink that makes the protection impossible, if any. */
  symlink?: string;
}

/** How `rel` (a PROTECTED_FOLDERS entry) is kept read-only inside `root`. */
function protectOne(root: string, rel: string): RootProtection {
  const segments = rel.split('/');
  const result: RootProtection = { pinned: [] };
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment);
    const last = index === segments.length - 1;
    const entry = entryAt(current);
    // A link cannot be mounted on (the mount lands on its target) and can be replaced: nothing holds it.
    if (entry === 'symlink') return { ...result, symlink: current };
    if (last) result.protectedPath = current;
    else result.pinned.push(current);
    // Beneath a file nothing can be made; pinning the file is enough to keep it so.
    if (entry === 'other' && !last) return result;
  }
  return result;
}

/**
 * Why `root` cannot be written in workspace-write, if it cannot: it holds a home folder, whose shell startup
 * files and user services a command would rewrite to run outside the sandbox at the next login.
 */
export function unwritableRoot(root: string, homes: readonly string[]): string | undefined {
  const home = homes.find((h) => isWithin(h, root));
  return home === undefined
    ? undefined
    : `${root} holds the home folder ${home}, whose startup files would run outside the sandbox, so it is read-only for this command.`;
}

/** The plan for `confinement`, from what is on disk now; `homes` (real paths) are never made writable. */
export function planWrites(confinement: Confinement, homes: readonly string[] = []): WritePlan {
  const roots = realRoots(confinement.roots);
  const plan: WritePlan = { writable: [], readOnly: [], pinned: [], protectedPaths: [], warnings: [] };
  if (confinement.policy.mode !== 'workspace-write') {
    plan.readOnly = withReadable(roots, [], confinement);
    return plan;
  }
  for (const root of roots) {
    const holdsHome = unwritableRoot(root, homes);
    if (holdsHome !== undefined) {
      plan.readOnly.push(root);
      plan.warnings.push(holdsHome);
      continue;
    }
    const protections = PROTECTED_FOLDERS.map((rel) => protectOne(root, rel));
    const symlink = protections.find((p) => p.symlink !== undefined)?.symlink;
    if (symlink !== undefined) {
      plan.readOnly.push(root);
      plan.warnings.push(
        `${symlink} is a symbolic link, which the sandbox cannot keep read-only, so ${root} is read-only for this command.`,
      );
      continue;
    }
    plan.writable.push(root);
    for (const protection of protections) {
      plan.pinned.push(...protection.pinned);
      if (protection.protectedPath !== undefined) plan.protectedPaths.push(protection.protectedPath);
    }
  }
  plan.pinned = [...new Set(plan.pinned)].sort((a, b) => depth(a) - depth(b));
  // A program's own folders (its cache), after the workspace's: nothing of the agent's is read from them.
  const extra = realRoots(confinement.writable ?? []).filter((folder) => unwritableRoot(folder, homes) === undefined);
  plan.writable = [...new Set([...plan.writable, ...extra])].sort((a, b) => depth(a) - depth(b));
  plan.protectedPaths.push(...keptReadOnly(confinement, plan.writable));
  plan.readOnly = withReadable(plan.readOnly, plan.writable, confinement);
  return plan;
}

/** The confinement's keptReadOnly paths that exist (no link) inside a writable folder, as real paths. */
export function keptReadOnly(confinement: Confinement, writable: readonly string[]): string[] {
  return (confinement.keptReadOnly ?? []).flatMap((p) => {
    const entry = entryAt(p);
    if (entry === 'missing' || entry === 'symlink') return [];
    const real = fs.realpathSync(p);
    return writable.some((folder) => isWithin(real, folder)) ? [real] : [];
  });
}

/** `readOnly` and the confinement's readable folders that no root already shows, parents first. */
function withReadable(readOnly: readonly string[], writable: readonly string[], confinement: Confinement): string[] {
  const shown = [...readOnly, ...writable];
  const more = realRoots(confinement.readable ?? []).filter((folder) => !shown.some((root) => isWithin(folder, root)));
  return [...readOnly, ...more].sort((a, b) => depth(a) - depth(b));
}

/** The folders a run mounts on inside writable roots, parents first: those missing are made before it. */
export function mountPointsOf(plan: WritePlan): string[] {
  return [...new Set([...plan.pinned, ...plan.protectedPaths])].sort((a, b) => depth(a) - depth(b));
}

/** Whether `p` is `folder` or inside it. */
export function isWithin(p: string, folder: string): boolean {
  const rel = path.relative(folder, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
