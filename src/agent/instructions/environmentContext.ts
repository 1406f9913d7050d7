import { type AnyInputItem, ENVIRONMENT_CONTEXT_TAG, isEnvironmentContext, userMessageText } from '../../protocol';
import type { SandboxPolicy } from '../../sandbox';
import type { ApprovalMode } from '../approvals/approvals';
import type { Transcript } from '../conversation/transcript';

// Where the agent works, told to the model as Codex tells it (a user message `<environment_context>` with
// `<cwd>`, `<shell>`, `<current_date>`, `<timezone>`, the format GPT and Codex models are trained on), with
// what Loopwire adds: the OS, the workspace folders and the approval mode. It goes into the transcript before
// the first prompt, like the project instructions (projectInstructions.ts); when any of it changes (a new
// day, another approval mode, a folder added) a new one goes at the end of the same chain, before the next
// request. History is never rewritten: the socket's cache keeps working, and a later item replaces an earlier
// one as the instructions say.

/** What the front end knows of where the agent works; the rest (date, zone, OS) is this process's own. */
export interface EnvironmentFacts {
  /** The folder commands run in by default: the workspace root (the first folder's, in multi-root). */
  cwd: string;
  /** The shell `exec_command` really runs (`bash`, `zsh`, `sh`, `cmd.exe`), as its file's name. */
  shell: string;
  /** Every workspace folder, as absolute paths. */
  folders: readonly string[];
}

const OS_NAMES: Record<string, string> = { darwin: 'macOS', linux: 'Linux', win32: 'Windows' };

/** `2026-12-06` in the local time zone: the user's today, not UTC's. */
export function localDate(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The zone last asked for, by the TZ it was asked under. */
let zone: { tz: string | undefined; name: string } | undefined;

/** The IANA zone this process runs in (`Europe/Paris`), `UTC` when the runtime cannot say. */
export function timeZone(): string {
  // Asked before every request, and a new Intl.DateTimeFormat costs a few hundred microseconds: kept until
  // TZ changes (V8 takes the zone from TZ, read again when it is set; it does not follow the system's).
  const tz = process.env['TZ'];
  if (zone === undefined || zone.tz !== tz)
    zone = { tz, name: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' };
  return zone.name;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The item's text for `facts` under `mode` (undefined: the policy does not say) on the day of `now`. */
/**
 * The sandbox as the item tells it, in Codex's words: `<sandbox_mode>` (danger-full-access where nothing is
 * confined) and `<network_access>` (restricted or enabled). Absent where the host has no sandbox to speak of.
 */
export type SandboxView = SandboxPolicy | 'none' | undefined;

export function environmentText(
  facts: EnvironmentFacts,
  mode: ApprovalMode | undefined,
  now = new Date(),
  sandbox: SandboxView = undefined,
): string {
  const line = (tag: string, value: string) => `  <${tag}>${escape(value)}</${tag}>`;
  return [
    `<${ENVIRONMENT_CONTEXT_TAG}>`,
    line('cwd', facts.cwd),
    line('shell', facts.shell),
    line('current_date', localDate(now)),
    line('timezone', timeZone()),
    line('os', OS_NAMES[process.platform] ?? process.platform),
    '  <workspace_folders>',
    ...facts.folders.map((folder) => `  ${line('folder', folder)}`),
    '  </workspace_folders>',
    ...(mode === undefined ? [] : [line('approval_mode', mode)]),
    ...sandboxLines(sandbox).map(([tag, value]) => line(tag, value)),
    `</${ENVIRONMENT_CONTEXT_TAG}>`,
  ].join('\n');
}

function sandboxLines(sandbox: SandboxView): [string, string][] {
  if (sandbox === undefined) return [];
  if (sandbox === 'none')
    return [
      ['sandbox_mode', 'danger-full-access'],
      ['network_access', 'enabled'],
    ];
  return [
    ['sandbox_mode', sandbox.mode],
    ['network_access', sandbox.network ? 'enabled' : 'restricted'],
  ];
}

const sandboxKey = (sandbox: SandboxView) =>
  sandbox === undefined || sandbox === 'none' ? String(sandbox) : `${sandbox.mode}/${sandbox.network}`;

/**
 * The item's text as it stands, for the facts `facts` gives under the mode `mode` gives, today: built again
 * only when one of them changed (or the day, or the zone), since it is asked before every request. The same
 * inputs give the same text, byte for byte.
 */
export function environmentReader(
  facts: () => EnvironmentFacts,
  mode: () => ApprovalMode | undefined,
  now: () => number = Date.now,
  sandbox: () => SandboxView = () => undefined,
): () => string {
  let last: { facts: EnvironmentFacts; mode: string; zone: string; day: Day; text: string } | undefined;
  return () => {
    const current = facts();
    const policy = mode();
    const confined = sandbox();
    const key = `${policy}|${sandboxKey(confined)}`;
    const zone = timeZone();
    const at = now();
    if (last && last.mode === key && last.zone === zone && within(last.day, at) && sameFacts(last.facts, current))
      return last.text;
    const date = new Date(at);
    // A copy: a caller that changes its facts in place must still be seen to have changed them.
    const kept = { cwd: current.cwd, shell: current.shell, folders: [...current.folders] };
    const text = environmentText(kept, policy, date, confined);
    last = { facts: kept, mode: key, zone, day: dayOf(date), text };
    return last.text;
  };
}

/** A local day, as the times it starts and ends at (a day of 23 or 25 hours included). */
interface Day {
  starts: number;
  ends: number;
}

function dayOf(date: Date): Day {
  const [year, month, day] = [date.getFullYear(), date.getMonth(), date.getDate()];
  return { starts: new Date(year, month, day).getTime(), ends: new Date(year, month, day + 1).getTime() };
}

const within = (day: Day, at: number) => at >= day.starts && at < day.ends;

function sameFacts(a: EnvironmentFacts, b: EnvironmentFacts): boolean {
  return (
    a.cwd === b.cwd &&
    a.shell === b.shell &&
    a.folders.length === b.folders.length &&
    a.folders.every((folder, i) => folder === b.folders[i])
  );
}

/**
 * What the agent calls before each request: appends an item to `transcript` when the text `read` gives
 * differs from the last one there (a resumed session's included), so an unchanged environment costs a string
 * comparison and nothing on the wire.
 */
export function environmentFollower(read: (() => string | undefined) | undefined, transcript: Transcript): () => void {
  let last: string | undefined;
  return () => {
    const text = read?.();
    if (text === undefined) return;
    last ??= latestEnvironment(transcript.items) ?? '';
    if (text === last) return;
    last = text;
    transcript.append({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  };
}

/** The text of the latest environment item in `items`, if any. */
function latestEnvironment(items: readonly AnyInputItem[]): string | undefined {
  const item = items.findLast(isEnvironmentContext);
  return item ? userMessageText(item) : undefined;
}
