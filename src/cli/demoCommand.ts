// `loopwire demo`: the offline agent on a copy of demo/workspace, asked to fix its failing test — what
// `npm start` runs, so a newcomer sees the whole loop (run the tests, search, read, patch, run them again).
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CliIo, ExitCode, errorMessage, parseFlags } from './cliIo';
import { execCommand } from './exec/execMain';
import { t } from './cliL10n';

export const demoUsage = `${t('usage: {0}', 'loopwire demo [--transport ws|http|auto] [--json] [--keep]')}

${t('Copies the demo workspace (demo/workspace: a small project whose test fails) to a temporary folder and runs\n  {0}\nagainst the bundled server, offline. The copy is removed afterwards unless --keep is given.', 'loopwire exec --workspace COPY --approve all "Fix the failing test."')}
`;

/** demo/workspace, found from the bundle (dist/cli/) or the sources (src/cli/). */
const DEMO = path.resolve(__dirname, '..', '..', 'demo', 'workspace');

export async function demoCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseFlags(
    io,
    { name: 'loopwire demo', usage: demoUsage },
    {
      args: argv,
      options: {
        transport: { type: 'string' },
        json: { type: 'boolean' },
        keep: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
  );
  if (typeof parsed === 'number') return parsed;
  const flags = parsed.values;
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'loopwire-demo-'));
  const copy = path.join(base, 'workspace');
  try {
    await fs.cp(DEMO, copy, { recursive: true });
  } catch (error) {
    io.stderr(`loopwire demo: cannot copy ${DEMO}: ${errorMessage(error)}\n`);
    return ExitCode.failed;
  }
  if (!flags.json) io.stderr(`(demo workspace copied to ${copy})\n`);
  try {
    return await execCommand(
      [
        '--workspace',
        copy,
        '--approve',
        'all',
        '--sessions-dir',
        path.join(base, 'sessions'),
        ...(flags.transport ? ['--transport', flags.transport] : []),
        ...(flags.json ? ['--json'] : []),
        'Fix the failing test.',
      ],
      io,
      { announceSession: Boolean(flags.keep) },
    );
  } finally {
    if (!flags.keep) await fs.rm(base, { recursive: true, force: true });
  }
}
