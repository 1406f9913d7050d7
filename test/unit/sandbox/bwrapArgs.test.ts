import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapArgs, hiddenMounts } from '../../../src/sandbox/bwrapArgs';
import { hiddenPaths } from '../../../src/sandbox/hiddenPaths';
import { claimMountPoints, releaseMountPoints, removeLingeringMountPoints } from '../../../src/sandbox/mountPoints';
import { type WritePlan, mountPointsOf, planWrites } from '../../../src/sandbox/writePlan';

// bubblewrap's argv, and the plan it is built from, without running bwrap: the order of the mounts is the
// policy (a later mount wins), so it is checked here on every machine, the Mac and CI without bwrap included.

const noPlan: WritePlan = { writable: [], readOnly: [], pinned: [], protectedPaths: [], warnings: [] };

/** The index of `flag` followed by `values` in `args`, or -1. */
function at(args: string[], flag: string, ...values: string[]): number {
  return args.findIndex((arg, i) => arg === flag && values.every((value, j) => args[i + 1 + j] === value));
}

describe('sandbox: bubblewrap’s arguments', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-plan-')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('mounts the host read-only, then a private /tmp, then the workspace, then its protected folders', () => {
    fs.mkdirSync(path.join(dir, '.git'));
    const plan = planWrites({ policy: { mode: 'workspace-write', network: false }, roots: [dir] });
    const args = bwrapArgs({ plan, hidden: [], network: false, cwd: dir, file: 'sh', args: ['-c', 'true'] });
    const order = [
      at(args, '--ro-bind', '/', '/'),
      at(args, '--tmpfs', '/tmp'),
      at(args, '--bind', dir, dir),
      at(args, '--ro-bind', path.join(dir, '.git'), path.join(dir, '.git')),
    ];
    assert.ok(order.every((i) => i >= 0) && order.every((i, k) => k === 0 || i > (order[k - 1] ?? 0)), String(order));
    assert.deepEqual(args.slice(-4), ['--', 'sh', '-c', 'true']);
    assert.ok(at(args, '--chdir', dir) >= 0);
  });

  it('unshares the pid, ipc and (network off) net namespaces, drops capabilities, dies with its parent, stays in its group', () => {
    const off = bwrapArgs({ plan: noPlan, hidden: [], network: false, cwd: '/', file: 'true', args: [] });
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-net', '--die-with-parent'])
      assert.ok(off.includes(flag), flag);
    // A session of its own would take the sandbox out of the process group the caller signals.
    assert.equal(off.includes('--new-session'), false);
    assert.ok(at(off, '--proc', '/proc') >= 0 && at(off, '--dev', '/dev') >= 0 && at(off, '--cap-drop', 'ALL') >= 0);
    const on = bwrapArgs({ plan: noPlan, hidden: [], network: true, cwd: '/', file: 'true', args: [] });
    assert.equal(on.includes('--unshare-net'), false);
  });

  it('protects a missing folder by a mount point made for the run, pinning the parent of a nested one', () => {
    fs.mkdirSync(path.join(dir, '.github'));
    const plan = planWrites({ policy: { mode: 'workspace-write', network: false }, roots: [dir] });
    assert.ok(plan.pinned.includes(path.join(dir, '.github')));
    assert.ok(plan.protectedPaths.includes(path.join(dir, '.github/hooks')));
    assert.ok(plan.protectedPaths.includes(path.join(dir, '.vscode')));
    const points = mountPointsOf(plan);
    assert.ok(points.indexOf(path.join(dir, '.github')) < points.indexOf(path.join(dir, '.github/hooks')));
    const claimed = claimMountPoints(points);
    const again = claimMountPoints(points);
    assert.ok(fs.statSync(path.join(dir, '.vscode')).isDirectory());
    assert.ok(!claimed.includes(path.join(dir, '.github')), 'the user’s own .github is not ours');
    releaseMountPoints(claimed);
    assert.ok(fs.existsSync(path.join(dir, '.vscode')), 'still in use by the second run');
    releaseMountPoints(again);
    // Unused, they linger for the next command of a burst, which takes them again rather than making them anew.
    assert.ok(fs.existsSync(path.join(dir, '.vscode')), 'lingers after its last run');
    const next = claimMountPoints(points);
    assert.deepEqual(next, claimed, 'a lingering mount point is taken again');
    releaseMountPoints(next);
    removeLingeringMountPoints();
    assert.deepEqual(fs.readdirSync(dir), ['.github']);
  });

  it('keeps what the user put in a mount point meanwhile', () => {
    const claimed = claimMountPoints([path.join(dir, '.vscode')]);
    fs.writeFileSync(path.join(dir, '.vscode/settings.json'), '{}');
    releaseMountPoints(claimed);
    assert.ok(fs.existsSync(path.join(dir, '.vscode/settings.json')));
  });

  it('makes no mount point where this user may not make one (nor could the command)', () => {
    fs.writeFileSync(path.join(dir, 'file'), '');
    assert.deepEqual(claimMountPoints([path.join(dir, 'file/.vscode'), path.join(dir, 'gone/.vscode')]), []);
    assert.deepEqual(fs.readdirSync(dir), ['file']);
  });

  it('pins a file where a nested protected path would need a folder', () => {
    fs.writeFileSync(path.join(dir, '.github'), 'not a folder');
    const plan = planWrites({ policy: { mode: 'workspace-write', network: false }, roots: [dir] });
    assert.ok(plan.pinned.includes(path.join(dir, '.github')));
    assert.ok(!plan.protectedPaths.includes(path.join(dir, '.github/hooks')));
  });

  it('makes a root read-only when a protected path in it is a symlink, with a warning', () => {
    fs.symlinkSync(os.tmpdir(), path.join(dir, '.claude'));
    const plan = planWrites({ policy: { mode: 'workspace-write', network: false }, roots: [dir] });
    assert.deepEqual(plan.writable, []);
    assert.deepEqual(plan.readOnly, [dir]);
    assert.match(plan.warnings[0] ?? '', /\.claude is a symbolic link/);
  });

  it('never makes writable a root that holds a home folder (its startup files run outside)', () => {
    const home = path.join(dir, 'home/me');
    fs.mkdirSync(home, { recursive: true });
    const confinement = { policy: { mode: 'workspace-write' as const, network: false }, roots: [dir, home] };
    const plan = planWrites(confinement, [home]);
    assert.deepEqual(plan.writable, []);
    assert.deepEqual(plan.readOnly, [dir, home]);
    assert.match(plan.warnings.join('\n'), /holds the home folder .*read-only for this command/);
    assert.deepEqual(planWrites(confinement, ['/somewhere/else']).writable, [dir, home]);
  });

  it('binds every root read-only in read-only, nothing pinned or protected', () => {
    const plan = planWrites({ policy: { mode: 'read-only', network: false }, roots: [dir, path.join(dir, 'missing')] });
    assert.deepEqual(plan, { ...noPlan, readOnly: [dir] });
    const args = bwrapArgs({ plan, hidden: [], network: false, cwd: dir, file: 'true', args: [] });
    assert.ok(at(args, '--ro-bind', dir, dir) > at(args, '--tmpfs', '/tmp'));
  });

  it('hides folders with an empty read-only tmpfs and files with /dev/null, after the workspace', () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.netrc'), 'secret');
    const plan = { ...noPlan, writable: [home] };
    const hidden = [
      { path: path.join(home, '.ssh'), kind: 'dir' as const },
      { path: path.join(home, '.netrc'), kind: 'file' as const },
    ];
    const args = bwrapArgs({ plan, hidden, network: false, cwd: home, file: 'true', args: [] });
    const bind = at(args, '--bind', home, home);
    assert.ok(at(args, '--tmpfs', path.join(home, '.ssh')) > bind);
    assert.ok(at(args, '--remount-ro', path.join(home, '.ssh')) > bind);
    assert.ok(at(args, '--ro-bind', '/dev/null', path.join(home, '.netrc')) > bind);
  });

  it('hides the credential stores under the given HOME and this user’s, where they exist', () => {
    const home = fs.realpathSync(fs.mkdtempSync('/var/tmp/loopwire-home-'));
    try {
      fs.mkdirSync(path.join(home, '.ssh'));
      fs.mkdirSync(path.join(home, '.docker'));
      fs.writeFileSync(path.join(home, '.docker/config.json'), '{}');
      const paths = hiddenPaths({ env: { HOME: home }, network: false, platform: 'linux' });
      assert.ok(paths.includes(path.join(os.homedir(), '.ssh')));
      assert.ok(paths.includes(path.join(home, '.local/state/loopwire')));
      const mounts = hiddenMounts(paths, []).filter((m) => m.path.startsWith(home));
      assert.deepEqual(mounts, [
        { path: path.join(home, '.ssh'), kind: 'dir' },
        { path: path.join(home, '.docker/config.json'), kind: 'file' },
      ]);
      assert.deepEqual(
        hiddenMounts(paths, [path.join(home, '.ssh')]).filter((m) => m.path.startsWith(home)),
        [{ path: path.join(home, '.docker/config.json'), kind: 'file' }],
        'a workspace folder inside a store is the user’s choice to work there',
      );
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('hides the host resolver’s sockets only with the network off', () => {
    const off = hiddenPaths({ env: {}, network: false, platform: 'linux' });
    const on = hiddenPaths({ env: {}, network: true, platform: 'linux' });
    assert.ok(off.includes('/run/systemd/resolve/io.systemd.Resolve'));
    assert.ok(!on.includes('/run/systemd/resolve/io.systemd.Resolve'));
    assert.ok(on.includes('/run/docker.sock') && on.includes('/run/dbus'));
  });
});
