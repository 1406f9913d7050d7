import { CREDENTIAL_STORES, PROTECTED_FOLDERS, type SandboxPolicy } from './policy';

// What to tell the model when the sandbox, not the command, is why a command failed: otherwise the model
// guesses (retries, works around, blames the code) where it should ask to run outside. Read from the words
// programs print for the errors a sandbox causes — each checked for real inside bwrap: a read-only file
// system (EROFS) for a write outside the writable folders, a hidden store read as empty or missing, and with
// the network off a failed name lookup (EAI_AGAIN, "Temporary failure in name resolution", "Could not resolve
// host") or an unreachable network (ENETUNREACH). On macOS Seatbelt answers EPERM ("Operation not permitted").

/** Words for a name lookup or connection that only fails like this when there is no network at all. */
const NETWORK_FAILURES: readonly RegExp[] = [
  /Could not resolve host(name)?/i,
  /Temporary failure in name resolution/i,
  /unable to resolve host address/i,
  /\bEAI_AGAIN\b/,
  /Network is unreachable/i,
  /\bENETUNREACH\b/,
  /nodename nor servname provided/i,
  /\bconnect EPERM\b/,
  /Couldn't connect to server/i,
];

/** A refused connection to the loopback: the host's own servers are out of reach of the sandbox's network. */
const LOOPBACK_REFUSED =
  /(ECONNREFUSED|Connection refused|Couldn't connect).*(127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)/i;

const READ_ONLY = /Read-only file system|\bEROFS\b/i;
const NOT_PERMITTED = /Operation not permitted|\bEPERM\b/i;
const UNREADABLE =
  /No such file or directory|Permission denied|Operation not permitted|\bENOENT\b|\bEACCES\b|\bEPERM\b/i;
const SANDBOX_START = /^bwrap: .*/m;

/** Where the hidden stores are, as their paths show them (under any home). */
const HIDDEN_SEGMENTS = [...CREDENTIAL_STORES, '.local/state/loopwire', 'User/globalStorage', 'User/workspaceStorage'];

/** The path a line of error output names: a quoted one first, else the word before the error's text. */
export function pathInLine(line: string, marker: RegExp): string | undefined {
  const quoted = [...line.matchAll(/['‘"`]([^'’"`]+)['’"`]/g)].map((m) => m[1] ?? '');
  const pathLike = quoted.find((q) => /[./]/.test(q)) ?? quoted[0];
  if (pathLike) return pathLike;
  const before = line.slice(0, line.search(marker)).trim().replace(/[:,]$/, '');
  const word = before.split(/\s+/).at(-1) ?? '';
  // A file's name has a dot or a slash; a program's prefix (`error:`) has neither.
  return /[./]/.test(word) ? word : undefined;
}

/** The PROTECTED_FOLDERS entry `p` lies in, judged on its words (it may be relative). */
function protectedFolderOf(p: string): string | undefined {
  const segments = p.split('/');
  return PROTECTED_FOLDERS.find((folder) => {
    const parts = folder.split('/');
    return segments.some((_, i) => parts.every((part, j) => segments[i + j] === part));
  });
}

function isHidden(p: string): boolean {
  return HIDDEN_SEGMENTS.some((store) => new RegExp(`(^|/)${store.replace(/\./g, '\\.')}(/|$)`).test(p));
}

function linesMatching(output: string, pattern: RegExp): string[] {
  return output.split('\n').filter((line) => pattern.test(line));
}

/** A write the sandbox refused: which path, and why it was not writable. */
function writeRefusal(output: string, policy: SandboxPolicy, platform: NodeJS.Platform): string | undefined {
  const marker = platform === 'darwin' ? new RegExp(`${READ_ONLY.source}|${NOT_PERMITTED.source}`, 'i') : READ_ONLY;
  const line = linesMatching(output, marker)[0];
  if (line === undefined) return undefined;
  const p = pathInLine(line, marker);
  if (p === undefined) return 'writing a file outside the writable folders';
  if (isHidden(p)) return `writing ${p}: the user's credential stores are hidden from commands`;
  if (policy.mode === 'read-only') return `writing ${p}: in read-only nothing is writable but the temporary folder`;
  const folder = protectedFolderOf(p);
  if (folder) return `writing ${p}: ${folder} stays read-only inside the workspace`;
  return `writing ${p} is outside the writable folders`;
}

function hiddenRead(output: string): string | undefined {
  for (const line of linesMatching(output, UNREADABLE)) {
    const p = pathInLine(line, UNREADABLE);
    if (p !== undefined && isHidden(p)) return `reading ${p}: the user's credential stores are hidden from commands`;
  }
  return undefined;
}

function networkRefusal(output: string): string | undefined {
  const loopback = output.match(LOOPBACK_REFUSED);
  if (loopback) {
    return `connecting to ${loopback[2]}: the sandbox has a network of its own, without the host's servers`;
  }
  for (const pattern of NETWORK_FAILURES) {
    const found = output.match(pattern);
    if (found) return `reaching the network, which is off (“${found[0]}”)`;
  }
  return undefined;
}

/**
 * What the sandbox refused, as `output` shows it, in words that follow "refused": `writing PATH is outside
 * the writable folders`, `reading PATH: …`, `reaching the network, which is off (…)`, `starting it: bwrap: …`;
 * undefined where the output shows no denial (or the policy confines nothing).
 */
export function sandboxRefusal(
  output: string,
  policy: SandboxPolicy,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (policy.mode === 'danger-full-access') return undefined;
  return (
    output.match(SANDBOX_START)?.[0].replace(/^/, 'starting it: ') ??
    writeRefusal(output, policy, platform) ??
    hiddenRead(output) ??
    (policy.network ? undefined : networkRefusal(output))
  );
}

/**
 * What to tell the model when a confined command failed (exit code not 0) and its output shows the sandbox
 * refused it (a write on a read-only file system, a path hidden, the network unreachable): one English line
 * naming the path or the network and saying it may ask to run outside the sandbox with
 * sandbox_permissions "require_escalated" and a justification; undefined where the output shows no denial.
 */
export function denialNote(
  output: string,
  policy: SandboxPolicy,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const what = sandboxRefusal(output, policy, platform);
  if (what === undefined) return undefined;
  return (
    `The sandbox (${policy.mode}, network ${policy.network ? 'on' : 'off'}) refused this: ${what}. ` +
    'If the task needs it, call exec_command again with sandbox_permissions "require_escalated" and a ' +
    'justification saying why; the user will be asked.'
  );
}
