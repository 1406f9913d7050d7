// `npm run bench -- --history DIR[@COMMIT] [--history …] [--commits N] [--cli-every K] [--json FILE]`: real
// history replayed through apply_patch. For each git directory (a bare mirror is enough), the newest N
// non-merge commits that change text files are each turned into one patch (diffToPatch.ts), planned against
// the parent's files and compared byte for byte with the commit; every K-th also goes through the real
// `loopwire apply-patch` on a temp folder. Prints a table per repository; what came out wrong or refused is
// listed after it, with the commit, so it can be looked into.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { thisMachine } from '../loop/machine';
import { headCommit, recentCommits } from './gitRepo';
import { replayWithCli } from './replayCli';
import { type CommitPatch, type Outcome, commitPatch, replayInMemory } from './replayCommit';

export interface HistoryOptions {
  dirs: readonly string[];
  commits: number;
  cliEvery: number;
  json?: string;
}

/** One repository's figures (the `--json` file holds one per repository). */
export interface HistoryRow {
  repository: string;
  head: string;
  /** The oldest commit replayed: the run covers oldest..head. */
  oldest: string;
  commits: number;
  files: number;
  chunks: number;
  /** Chunks given more context than the diff's 3 lines, so that their first fit is their own place. */
  widened: number;
  exact: number;
  wrong: number;
  refused: Record<string, number>;
  /** Files whose commit text the format cannot carry (no final newline, …), applied as far as it can. */
  inexpressible: Record<string, number>;
  /** Binary files, symlinks and submodules left out of the patches. */
  skipped_files: number;
  cli_commits: number;
  cli_exact: number;
  engine_ms: number;
  git_ms: number;
}

interface Failure {
  repository: string;
  commit: string;
  via: 'engine' | 'cli';
  outcome: Exclude<Outcome, { kind: 'exact' }>;
}

/** `/work/.mirror/owner+name/repo` → `owner/name`; else the folder's own name. */
function repositoryName(dir: string): string {
  const parts = path.resolve(dir).split(path.sep);
  const owner = parts.find((part) => part.includes('+'));
  return owner ? owner.replace('+', '/') : (parts.at(-1) ?? dir);
}

/** `DIR@COMMIT` → the folder and the commit to walk back from (HEAD when none is named). */
function target(spec: string): { dir: string; rev: string } {
  const at = /^(.*)@([0-9a-f]{7,40})$/i.exec(spec);
  return at ? { dir: at[1] ?? spec, rev: at[2] ?? 'HEAD' } : { dir: spec, rev: 'HEAD' };
}

function replayRepository(spec: string, options: HistoryOptions, failures: Failure[]): HistoryRow {
  const { dir, rev } = target(spec);
  const repository = repositoryName(dir);
  const row: HistoryRow = {
    repository,
    head: headCommit(dir, rev),
    oldest: '',
    commits: 0,
    files: 0,
    chunks: 0,
    widened: 0,
    exact: 0,
    wrong: 0,
    refused: {},
    inexpressible: {},
    skipped_files: 0,
    cli_commits: 0,
    cli_exact: 0,
    engine_ms: 0,
    git_ms: 0,
  };
  // Commits that change only binaries (or nothing) are passed over, so look further back than N.
  for (const { commit, parent } of recentCommits(dir, options.commits * 4, row.head)) {
    if (row.commits >= options.commits) break;
    if (parent === undefined) continue;
    const gitStart = performance.now();
    const patch: CommitPatch | undefined = commitPatch(dir, parent, commit);
    row.git_ms += performance.now() - gitStart;
    if (!patch) continue;
    row.commits++;
    row.oldest = commit;
    row.files += patch.files.length;
    row.chunks += patch.chunks;
    row.widened += patch.widened;
    row.skipped_files += patch.skipped;
    for (const file of patch.files) {
      if (file.inexpressible) row.inexpressible[file.inexpressible] = (row.inexpressible[file.inexpressible] ?? 0) + 1;
    }
    const start = performance.now();
    const outcome = replayInMemory(patch);
    row.engine_ms += performance.now() - start;
    if (outcome.kind === 'exact') row.exact++;
    else {
      if (outcome.kind === 'wrong') row.wrong++;
      else row.refused[outcome.code] = (row.refused[outcome.code] ?? 0) + 1;
      failures.push({ repository, commit, via: 'engine', outcome });
    }
    if (options.cliEvery > 0 && (row.commits - 1) % options.cliEvery === 0) {
      row.cli_commits++;
      const cli = replayWithCli(patch);
      if (cli.kind === 'exact') row.cli_exact++;
      else failures.push({ repository, commit, via: 'cli', outcome: cli });
    }
  }
  return row;
}

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([code, n]) => `${n} ${code}`)
    .join(', ') || '0';

function printTable(rows: readonly HistoryRow[]): void {
  const head = [
    'repository',
    'commits',
    'files',
    'chunks',
    'widened',
    'exact',
    'wrong',
    'refused',
    'inexpressible',
    'cli',
    'engine',
    'git',
  ];
  const total = (key: 'commits' | 'files' | 'chunks' | 'widened' | 'exact' | 'wrong' | 'cli_commits' | 'cli_exact') =>
    rows.reduce((n, row) => n + row[key], 0);
  const merged = (key: 'refused' | 'inexpressible') => {
    const out: Record<string, number> = {};
    for (const row of rows) for (const [k, n] of Object.entries(row[key])) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  const body = rows.map((row) => [
    `${row.repository} @ ${row.head.slice(0, 10)}`,
    String(row.commits),
    String(row.files),
    String(row.chunks),
    String(row.widened),
    String(row.exact),
    String(row.wrong),
    counts(row.refused),
    counts(row.inexpressible),
    `${row.cli_exact}/${row.cli_commits}`,
    `${row.engine_ms.toFixed(0)} ms`,
    `${(row.git_ms / 1000).toFixed(1)} s`,
  ]);
  body.push([
    'all',
    String(total('commits')),
    String(total('files')),
    String(total('chunks')),
    String(total('widened')),
    String(total('exact')),
    String(total('wrong')),
    counts(merged('refused')),
    counts(merged('inexpressible')),
    `${total('cli_exact')}/${total('cli_commits')}`,
    `${rows.reduce((n, row) => n + row.engine_ms, 0).toFixed(0)} ms`,
    `${(rows.reduce((n, row) => n + row.git_ms, 0) / 1000).toFixed(1)} s`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(head));
  for (const r of body) console.log(line(r));
}

/** Runs the replay over every directory and prints the table (and the failures, if any). */
export function runHistoryBench(options: HistoryOptions): Promise<void> {
  const machine = thisMachine();
  console.log(
    `history replay: the newest ${options.commits} text-changing commits of each repository, one apply_patch patch each; ` +
      `every ${options.cliEvery}th through loopwire apply-patch (${machine.cpus} × ${machine.cpu_model}, Node ${machine.node})\n`,
  );
  const failures: Failure[] = [];
  const rows = options.dirs.map((dir) => {
    const row = replayRepository(dir, options, failures);
    process.stderr.write(`${row.repository}: ${row.commits} commits replayed\n`);
    return row;
  });
  printTable(rows);
  for (const row of rows) console.log(`  ${row.repository}: ${row.oldest.slice(0, 10)}..${row.head.slice(0, 10)}`);
  if (failures.length > 0) {
    console.log(`\n${failures.length} not exact:`);
    for (const f of failures.slice(0, 40)) {
      const what =
        f.outcome.kind === 'wrong'
          ? `wrong in ${f.outcome.path}: ${f.outcome.detail}`
          : `${f.outcome.code}: ${f.outcome.message.split('\n')[0] ?? ''}`;
      console.log(`  ${f.repository} ${f.commit.slice(0, 10)} (${f.via}) ${what}`);
    }
  }
  if (options.json) {
    fs.mkdirSync(path.dirname(path.resolve(options.json)), { recursive: true });
    fs.writeFileSync(options.json, `${JSON.stringify({ machine, rows, failures }, null, 2)}\n`);
    console.log(`\njson: ${options.json}`);
  }
  return Promise.resolve();
}
