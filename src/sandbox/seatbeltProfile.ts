import * as path from 'node:path';
import { PROTECTED_FOLDERS } from './policy';

// The Seatbelt profile for one command (macOS), as Codex builds its own: everything denied, then what a
// command needs to run allowed back, reads everywhere but the hidden paths, writes only inside the writable
// folders (minus their protected folders) and a private temporary folder, the network only where allowed.
// Every path travels as a `-D NAME=path` parameter, never spliced into the profile's text, so no quote or
// backslash in a folder's name can change the profile. Seatbelt judges a path as written, link or not, so
// unlike a mount it keeps a protected folder that is a symlink (or missing) without anything made on disk.
// Untested on a Mac (docs/security.md): the tests here check the text it generates.

export interface SeatbeltInput {
  /** The writable workspace folders (real paths); none in read-only. */
  writableRoots: readonly string[];
  /** Paths no command may read or write (real paths). */
  hidden: readonly string[];
  /** The command's own temporary folder (its TMPDIR), writable. */
  privateTmp: string;
  network: boolean;
  /** Paths inside the writable roots that stay read only (policy.ts, keptReadOnly). */
  keptReadOnly?: readonly string[];
}

export interface SeatbeltProfile {
  profile: string;
  /** Name and value of each parameter the profile reads with `(param "NAME")`. */
  params: [string, string][];
}

/** What any program needs to start and run: its children, its own signals, the user database, ttys. */
const BASE = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow sysctl-read)',
  '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger")',
  '  (global-name "com.apple.cfprefsd.daemon") (global-name "com.apple.cfprefsd.agent")',
  '  (global-name "com.apple.PowerManagement.control"))',
  '(allow ipc-posix-sem)',
  '(allow ipc-posix-shm-read* (ipc-posix-name-prefix "apple.cfprefs."))',
  '(allow user-preference-read)',
  '(allow pseudo-tty)',
  '(allow file-ioctl)',
  '(allow file-read-metadata)',
  '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr")',
  '  (literal "/dev/ptmx") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
];

/** The network, where allowed: IP anywhere, the system's resolver and certificate checks; no other socket. */
const NETWORK = [
  '(allow system-socket)',
  '(allow network-bind (local ip "*:*"))',
  '(allow network-inbound (local ip "*:*"))',
  '(allow network-outbound (remote ip "*:*"))',
  '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.trustd")',
  '  (global-name "com.apple.trustd.agent") (global-name "com.apple.SystemConfiguration.configd")',
  '  (global-name "com.apple.SystemConfiguration.DNSConfiguration") (global-name "com.apple.networkd"))',
];

const param = (name: string) => `(param "${name}")`;

/** The folders between `root` and a nested protected path: their own names may not be written (renamed away). */
function pinnedOf(root: string): string[] {
  const pins = PROTECTED_FOLDERS.flatMap((rel) => {
    const segments = rel.split('/');
    return segments.slice(0, -1).map((_, i) => path.join(root, ...segments.slice(0, i + 1)));
  });
  return [...new Set(pins)];
}

/** The rule that lets `writableRoots` be written, their protected folders and the hidden paths excepted. */
function writeRule(input: SeatbeltInput, params: [string, string][], hiddenNames: string[]): string[] {
  const alternatives = input.writableRoots.map((root, i) => {
    const name = `WRITABLE_ROOT_${i}`;
    params.push([name, root]);
    const exceptions = PROTECTED_FOLDERS.flatMap((rel, j) => {
      const excluded = `${name}_RO_${j}`;
      params.push([excluded, path.join(root, ...rel.split('/'))]);
      // `literal` too: `subpath` alone would let the command create the missing folder itself.
      return [`(require-not (literal ${param(excluded)}))`, `(require-not (subpath ${param(excluded)}))`];
    });
    const pins = pinnedOf(root).map((pin, j) => {
      const pinned = `${name}_PIN_${j}`;
      params.push([pinned, pin]);
      return `(require-not (literal ${param(pinned)}))`;
    });
    const hidden = hiddenNames.map((h) => `(require-not (subpath ${param(h)}))`);
    const kept = (input.keptReadOnly ?? []).map((p, j) => {
      const keptName = `${name}_KEPT_${j}`;
      params.push([keptName, p]);
      return `(require-not (literal ${param(keptName)}))`;
    });
    const rules = [...exceptions, ...pins, ...hidden, ...kept];
    return `  (require-all (subpath ${param(name)})\n    ${rules.join('\n    ')})`;
  });
  return alternatives.length ? ['(allow file-write*', ...alternatives, ')'] : [];
}

/** Unix sockets for local IPC (a test's server and client), inside the writable folders and the temp folder only. */
function unixSocketRules(input: SeatbeltInput): string[] {
  const places = ['PRIVATE_TMP', ...input.writableRoots.map((_, i) => `WRITABLE_ROOT_${i}`)]
    .map((name) => `(subpath ${param(name)})`)
    .join(' ');
  return [
    '(allow system-socket (socket-domain AF_UNIX))',
    `(allow network-bind (local unix-socket ${places}))`,
    `(allow network-outbound (remote unix-socket ${places}))`,
  ];
}

/** The profile and its parameters for `input`. */
export function seatbeltProfile(input: SeatbeltInput): SeatbeltProfile {
  const params: [string, string][] = [['PRIVATE_TMP', input.privateTmp]];
  const hiddenNames = input.hidden.map((h, i) => {
    params.push([`HIDDEN_${i}`, h]);
    return `HIDDEN_${i}`;
  });
  const readable = hiddenNames.length
    ? `(allow file-read-data file-read-xattr (require-all ${hiddenNames.map((h) => `(require-not (subpath ${param(h)}))`).join(' ')}))`
    : '(allow file-read-data file-read-xattr)';
  const lines = [
    ...BASE,
    readable,
    `(allow file-read* file-write* (subpath ${param('PRIVATE_TMP')}))`,
    ...writeRule(input, params, hiddenNames),
    ...unixSocketRules(input),
    ...(input.network ? NETWORK : []),
  ];
  return { profile: `${lines.join('\n')}\n`, params };
}

/** sandbox-exec's arguments (after the program) to run `file args` under `input`. */
export function seatbeltArgs(input: SeatbeltInput, file: string, args: readonly string[]): string[] {
  const { profile, params } = seatbeltProfile(input);
  return ['-p', profile, ...params.flatMap(([name, value]) => ['-D', `${name}=${value}`]), '--', file, ...args];
}
