// The same replay end to end through the real `loopwire apply-patch` (the bundled CLI, `node esbuild.js`
// first): the parent's files written to a temp folder, the patch on stdin, the folder compared with the commit.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CommitPatch, type Outcome, compareTree } from './replayCommit';

const BUILT = path.resolve(__dirname, '../../../dist/cli');
let copied: string | undefined;

/** The bundled CLI, copied once per run: a rebuild of dist/ during a long replay must not pull it away. */
function cli(): string {
  if (copied) return copied;
  if (!fs.existsSync(path.join(BUILT, 'loopwire.js')))
    throw new Error(`${BUILT}/loopwire.js is missing: run node esbuild.js first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-history-cli-'));
  fs.cpSync(BUILT, dir, { recursive: true });
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  copied = path.join(dir, 'loopwire.js');
  return copied;
}

/** Applies the commit's patch with the CLI on a copy of the parent's files and compares the result. */
export function replayWithCli(commit: CommitPatch): Outcome {
  const bin = cli();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-history-'));
  try {
    for (const file of commit.files) {
      if (file.oldText === null) continue;
      const target = path.join(dir, file.oldPath);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.oldText);
    }
    const run = spawnSync(process.execPath, [bin, 'apply-patch', '--cwd', dir], {
      input: commit.patch,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (run.status !== 0) {
      const code = /: ([a-z_]+): /.exec(run.stderr)?.[1] ?? `exit ${run.status ?? run.signal ?? '?'}`;
      return { kind: 'refused', code, message: run.stderr.trim() };
    }
    return compareTree(commit.files, (name) => {
      const full = path.join(dir, name);
      return fs.existsSync(full) ? fs.readFileSync(full) : null;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
