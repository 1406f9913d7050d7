// `loopwire apply-patch`: an apply_patch patch on stdin, applied under one folder, all or nothing.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type EditPlan, type FileSnapshot, parsePatch, planPatch, renderUnifiedDiff, summarizePlan } from '../edit';
import { type CliIo, ExitCode, errorMessage, parseFlags } from './cliIo';
import { type Write, commitWrites, readTarget, resolveTarget } from './patchFiles';
import { t } from './cliL10n';

export const applyPatchUsage = `${t('usage: {0}', 'loopwire apply-patch [--cwd DIR] [--check] [--diff]')}

${t("Reads a patch in the apply_patch format (*** Begin Patch … *** End Patch) on standard input and applies it\nto the files under DIR, all or nothing: every file is planned first, then written through temp files and\nrenames, and a failure leaves every file as it was. Paths must stay inside DIR: absolute paths, '..',\nsymlinks that lead out and anything under .git/ are refused.")}

  --cwd DIR   ${t("the folder the patch's paths are relative to (default: the current directory)")}
  --check     ${t('plan only: say what would change, write nothing')}
  --diff      ${t('also print the change as a unified diff')}

${t('Exit status: 0 applied (or nothing to change), 1 refused (nothing was changed), 2 bad usage.')}
`;

const name = 'loopwire apply-patch';

function refuse(io: CliIo, message: string): ExitCode {
  io.stderr(`${name}: ${message}\nNothing was changed.\n`);
  return ExitCode.failed;
}

/** Everything read from disk for one patch: snapshots for the engine, and where and what each file is. */
interface Disk {
  snapshots: Map<string, FileSnapshot>;
  files: Map<string, { real: string; bytes: Buffer | null; mode?: number }>;
}

async function readDisk(root: string, paths: readonly string[]): Promise<Disk | string> {
  const disk: Disk = { snapshots: new Map(), files: new Map() };
  const byReal = new Map<string, string>();
  for (const relative of paths) {
    const target = resolveTarget(root, relative);
    if (!target.ok) return `refused '${relative}': ${target.reason}.`;
    const other = byReal.get(target.real);
    if (other !== undefined) return `'${relative}' and '${other}' are the same file; name it once.`;
    byReal.set(target.real, relative);
    const read = await readTarget(target.real);
    if (read && 'refused' in read) return `refused '${relative}': it ${read.refused}.`;
    disk.files.set(relative, { real: target.real, bytes: read?.bytes ?? null, ...(read ? { mode: read.mode } : {}) });
    if (read) disk.snapshots.set(relative, { text: read.text });
  }
  return disk;
}

function writesOf(plan: EditPlan, disk: Disk): Write[] {
  const writes: Write[] = [];
  const at = (relative: string) => disk.files.get(relative) ?? { real: relative, bytes: null };
  for (const file of plan.files) {
    if (file.noop) continue;
    const source = at(file.path);
    const mode = 'mode' in source ? source.mode : undefined;
    if (file.op === 'delete') {
      writes.push({ real: source.real, bytes: null, original: source.bytes });
    } else if (file.op === 'move') {
      const target = at(file.moveTo ?? file.path);
      writes.push({ real: target.real, bytes: Buffer.from(file.after ?? '', 'utf8'), original: target.bytes, mode });
      writes.push({ real: source.real, bytes: null, original: source.bytes });
    } else {
      writes.push({ real: source.real, bytes: Buffer.from(file.after ?? '', 'utf8'), original: source.bytes, mode });
    }
  }
  return writes;
}

export async function applyPatchCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(
    io,
    { name, usage: applyPatchUsage },
    {
      args: argv,
      options: {
        cwd: { type: 'string' },
        check: { type: 'boolean' },
        diff: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
  );
  if (typeof flags === 'number') return flags;
  const options = flags.values;
  let root: string;
  try {
    root = await fs.realpath(path.resolve(options.cwd ?? '.'));
    if (!(await fs.stat(root)).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    io.stderr(`${name}: --cwd ${options.cwd ?? '.'}: ${errorMessage(error)}\n`);
    return ExitCode.usage;
  }
  const text = await io.readStdin();
  if (text.trim() === '') {
    io.stderr(`${name}: no patch on standard input\n\n${applyPatchUsage}`);
    return ExitCode.usage;
  }
  const parsed = parsePatch(text);
  if (!parsed.ok) return refuse(io, `${parsed.error.code}: ${parsed.error.message}`);
  const disk = await readDisk(root, parsed.value.paths);
  if (typeof disk === 'string') return refuse(io, disk);
  const plan = planPatch(parsed.value, disk.snapshots);
  if (!plan.ok) return refuse(io, `${plan.error.code}: ${plan.error.message}`);
  if (options.diff) io.stdout(renderUnifiedDiff(plan.value));
  const summary = summarizePlan(plan.value).join('\n');
  if (plan.value.noop) {
    io.stdout(`${summary}\nnothing to change: the patch leaves every file as it is\n`);
    return ExitCode.ok;
  }
  if (options.check) {
    io.stdout(`${summary}\ncheck only: nothing was written\n`);
    return ExitCode.ok;
  }
  try {
    await commitWrites(writesOf(plan.value, disk));
  } catch (error) {
    return refuse(io, `writing failed: ${errorMessage(error)}`);
  }
  const changed = plan.value.files.filter((file) => !file.noop).length;
  io.stdout(`${summary}\napplied: ${changed} file${changed === 1 ? '' : 's'} changed\n`);
  return ExitCode.ok;
}
