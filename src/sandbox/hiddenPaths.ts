import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CREDENTIAL_STORES } from './policy';

// What no confined command may read, whatever its policy: the user's credential stores, Loopwire's own
// sessions and the editors' storage (where the extension's transcripts and VS Code's secret store live), and
// the sockets through which a process reaches the user's keys or the host (agents, the session bus with its
// keyring, Docker's daemon, which is root). A path is hidden only where it exists; the mechanism decides how.

/** Under each home folder: Loopwire's sessions, and the storage of the editors Loopwire runs in. */
const PRIVATE_DATA_LINUX = [
  '.local/state/loopwire',
  ...['Code', 'Code - Insiders', 'VSCodium', 'Cursor'].flatMap((editor) => [
    `.config/${editor}/User/globalStorage`,
    `.config/${editor}/User/workspaceStorage`,
  ]),
  '.vscode-server/data/User/globalStorage',
  '.vscode-server/data/User/workspaceStorage',
  '.local/share/code-server/User/globalStorage',
  '.local/share/code-server/User/workspaceStorage',
];

const PRIVATE_DATA_MACOS = [
  '.local/state/loopwire',
  ...['Code', 'Code - Insiders', 'VSCodium', 'Cursor'].flatMap((editor) => [
    `Library/Application Support/${editor}/User/globalStorage`,
    `Library/Application Support/${editor}/User/workspaceStorage`,
  ]),
];

/** Sockets and folders of the host that lead out of any sandbox (Linux). */
const HOST_SOCKETS = ['/run/dbus', '/run/docker.sock', '/var/run/docker.sock', '/run/containerd', '/run/podman'];

/**
 * With the network off: the resolvers reachable through a file rather than the network (systemd-resolved's
 * varlink socket, nscd), through which a name, and data spelled in it, would still reach DNS.
 */
const RESOLVER_SOCKETS = ['/run/systemd/resolve/io.systemd.Resolve', '/run/nscd', '/var/run/nscd'];

export interface HiddenPathsOptions {
  /** The command's environment (its HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR count besides this process's). */
  env: NodeJS.ProcessEnv;
  network: boolean;
  platform?: NodeJS.Platform;
  /** Further absolute paths to hide (the extension's own storage). */
  extra?: readonly string[];
}

/**
 * The home folders whose credential stores are hidden: this process's user's, and the command's HOME.
 * Symlinks resolved where they exist, since a mount lands on the real path.
 */
export function homeFolders(env: NodeJS.ProcessEnv): string[] {
  const homes = [os.homedir()];
  const given = env['HOME'];
  if (given && path.isAbsolute(given)) homes.push(given);
  return [
    ...new Set(
      homes.map((home) => {
        try {
          return fs.realpathSync(home);
        } catch {
          return path.resolve(home);
        }
      }),
    ),
  ];
}

function stateFolders(env: NodeJS.ProcessEnv): string[] {
  return [env['XDG_STATE_HOME'], process.env['XDG_STATE_HOME']]
    .filter((dir): dir is string => !!dir && path.isAbsolute(dir))
    .map((dir) => path.join(dir, 'loopwire'));
}

/** The user's runtime folder (its agents' sockets and the session bus). */
function runtimeFolders(env: NodeJS.ProcessEnv): string[] {
  const dirs = [env['XDG_RUNTIME_DIR'], process.env['XDG_RUNTIME_DIR']];
  const uid = process.getuid?.();
  if (uid !== undefined) dirs.push(`/run/user/${uid}`);
  return dirs.filter((dir): dir is string => !!dir && path.isAbsolute(dir));
}

/**
 * The agents' sockets the environment names (ssh's, gpg's): mostly in /tmp or the runtime folder, hidden with
 * them, but named here too, so that a folder shown again over the private /tmp (a program's own, a workspace
 * there) never shows one: whoever reaches it signs as the user.
 */
function agentSockets(env: NodeJS.ProcessEnv): string[] {
  const named = [env['SSH_AUTH_SOCK'], process.env['SSH_AUTH_SOCK'], env['GPG_AGENT_INFO']?.split(':')[0]];
  return named.filter((socket): socket is string => !!socket && path.isAbsolute(socket));
}

/** Absolute paths to hide from a confined command (existing or not; the caller keeps those that exist). */
export function hiddenPaths(options: HiddenPathsOptions): string[] {
  const platform = options.platform ?? process.platform;
  const privateData = platform === 'darwin' ? PRIVATE_DATA_MACOS : PRIVATE_DATA_LINUX;
  const underHomes = homeFolders(options.env).flatMap((home) =>
    [...CREDENTIAL_STORES, ...privateData].map((rel) => path.join(home, ...rel.split('/'))),
  );
  const host =
    platform === 'linux'
      ? [
          ...runtimeFolders(options.env),
          ...agentSockets(options.env),
          ...HOST_SOCKETS,
          ...(options.network ? [] : RESOLVER_SOCKETS),
        ]
      : [];
  return [...new Set([...underHomes, ...stateFolders(options.env), ...host, ...(options.extra ?? [])])];
}
