import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapArgs, hiddenMounts } from './bwrapArgs';
import { hiddenPaths, homeFolders } from './hiddenPaths';
import { claimMountPoints, releaseMountPoints } from './mountPoints';
import type { Confinement } from './policy';
import { type SandboxSupport, sandboxSupport } from './sandboxSupport';
import { seatbeltArgs } from './seatbeltProfile';
import { withoutLoopwireKeys, withoutSecrets } from './secrets';
import { isWithin, keptReadOnly, mountPointsOf, planWrites, realRoots, unwritableRoot } from './writePlan';

export { isSecretName, withoutLoopwireKeys, withoutSecrets } from './secrets';

// A command's spawn, wrapped in the sandbox its confinement asks for. The caller spawns what comes back with
// the spec's cwd and `detached: true` (on Linux and macOS), as src/workspace/shared/taskSpawn.ts does: its
// own session, so that no terminal of the user's is the command's (no TIOCSTI), and its own process group,
// which a signal reaches whole, the sandbox included. It calls `cleanup()` once that has exited.

/** A process as it would be spawned. */
export interface SpawnSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The same process, confined: what to spawn instead (detached: see above), and what to do once it has ended.
 * To stop it, signal its process group, SIGKILL after SIGTERM as for any command: a sandbox stopped while
 * it was being set up ignores SIGTERM.
 */
export interface ConfinedSpawn {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Removes whatever the confinement left on disk (mount points it had to create); call once it has exited. */
  cleanup(): void;
  /** What the confinement could not do as asked (a workspace folder made read-only, and why); empty mostly. */
  warnings: string[];
}

/** A confinement asked for where there is no sandbox: the command must not run. */
export class SandboxUnavailableError extends Error {
  constructor(
    readonly reason: string,
    readonly hint?: string,
  ) {
    super(
      `This command must run in the sandbox, which is not available: ${reason}${hint ? ` To get one: ${hint}.` : ''}`,
    );
    this.name = 'SandboxUnavailableError';
  }
}

/** The environment inside: no secrets, and the private temporary folder as every temp variable. */
function sandboxEnv(env: NodeJS.ProcessEnv, tmp: string): NodeJS.ProcessEnv {
  const clean = withoutSecrets(env);
  clean['TMPDIR'] = tmp;
  for (const name of ['TMP', 'TEMP']) if (clean[name] !== undefined) clean[name] = tmp;
  return clean;
}

function confineWithBwrap(program: string, spec: SpawnSpec, confinement: Confinement): ConfinedSpawn {
  const plan = planWrites(confinement, homeFolders(spec.env));
  const network = confinement.policy.network;
  // Only the workspace folders leave a hidden path that holds them alone; a program's own folders do not.
  const roots = realRoots(confinement.roots);
  const bound = [...plan.writable, ...plan.readOnly];
  const hidden = hiddenMounts(hiddenPaths({ env: spec.env, network, extra: confinement.hidden }), roots, bound);
  // Made before the argv is used and given back after the run; a throw here leaves nothing behind.
  const claimed = claimMountPoints(mountPointsOf(plan));
  // What could not be made, the command cannot make either: nothing to mount there.
  const exists = (p: string) => fs.existsSync(p);
  const mounted = { ...plan, pinned: plan.pinned.filter(exists), protectedPaths: plan.protectedPaths.filter(exists) };
  const args = bwrapArgs({ plan: mounted, hidden, network, cwd: spec.cwd, file: spec.file, args: spec.args });
  return {
    file: program,
    args,
    env: sandboxEnv(spec.env, '/tmp'),
    cleanup: once(() => releaseMountPoints(claimed)),
    warnings: plan.warnings,
  };
}

function confineWithSeatbelt(program: string, spec: SpawnSpec, confinement: Confinement): ConfinedSpawn {
  // The host's temporary folders, as on Linux: the user's own (TMPDIR) and /tmp.
  const hostTmp = [fs.realpathSync(os.tmpdir()), '/private/tmp'];
  const privateTmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-sandbox-')));
  const roots = realRoots(confinement.roots);
  const homes = homeFolders(spec.env);
  const warnings: string[] = [];
  const writableRoots =
    confinement.policy.mode !== 'workspace-write'
      ? []
      : [
          ...roots.filter((root) => {
            const why = unwritableRoot(root, homes);
            if (why !== undefined) warnings.push(why);
            return why === undefined;
          }),
          ...realRoots(confinement.writable ?? []).filter((folder) => unwritableRoot(folder, homes) === undefined),
        ];
  const shown = [...roots, ...realRoots(confinement.readable ?? [])];
  const hidden = [
    ...hiddenPaths({ env: spec.env, network: confinement.policy.network, extra: confinement.hidden }),
    ...hostTmp,
  ].flatMap((p) => {
    try {
      const real = fs.realpathSync(p);
      // As on Linux: a path that holds a workspace folder is where the user works, not a store to hide.
      return shown.some((root) => isWithin(root, real)) ? [] : [real];
    } catch {
      return [];
    }
  });
  const kept = keptReadOnly(confinement, writableRoots);
  const network = confinement.policy.network;
  const input = { writableRoots, hidden: [...new Set(hidden)], privateTmp, network, keptReadOnly: kept };
  return {
    file: program,
    args: seatbeltArgs(input, spec.file, spec.args),
    env: sandboxEnv(spec.env, privateTmp),
    cleanup: once(() => fs.rmSync(privateTmp, { recursive: true, force: true })),
    warnings,
  };
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

/** `spec` confined by `confinement` with `support` (what `confineSpawn` does with this machine's). */
export function confineWith(support: SandboxSupport, spec: SpawnSpec, confinement: Confinement): ConfinedSpawn {
  if (confinement.policy.mode === 'danger-full-access') {
    return {
      file: spec.file,
      args: [...spec.args],
      env: withoutLoopwireKeys(spec.env),
      cleanup: () => undefined,
      warnings: [],
    };
  }
  if (!support.available) throw new SandboxUnavailableError(support.reason, support.hint);
  return support.mechanism === 'bwrap'
    ? confineWithBwrap(support.program, spec, confinement)
    : confineWithSeatbelt(support.program, spec, confinement);
}

/**
 * `spec` confined by `confinement`. danger-full-access returns it as it is, its env without Loopwire's own
 * keys (the user's other variables stay: an unconfined command can read every file of theirs anyway); any
 * other policy where `sandboxSupport()` is unavailable throws a SandboxUnavailableError (never runs
 * unconfined what was meant to be confined).
 */
export function confineSpawn(spec: SpawnSpec, confinement: Confinement): ConfinedSpawn {
  return confineWith(
    confinement.policy.mode === 'danger-full-access' ? { available: false, reason: '' } : sandboxSupport(),
    spec,
    confinement,
  );
}
