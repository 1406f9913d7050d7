import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ReadLedger, runToolCall } from '../../../../src/tools';
import { COMMAND_TERMINAL_NAME, type CommandPath } from '../../../../src/workspace/vscode/commandTerminal';
import { type ShellIntegrationApi, shellIntegrationApi } from '../../../../src/workspace/vscode/shellIntegration';
import { VscodeWorkspace } from '../../../../src/workspace/vscode/vscodeWorkspace';
import { eventually, fixture, writeFixture } from '../support';
import { alive } from '../../../unit/support/processAlive';

// exec_command through the VS Code adapter in the real host: commands run in a terminal named Loopwire, by
// shell integration where this VS Code and its shell start it, else (and when forced) in a pseudoterminal
// running a child process. Both ways report the exit code and output, run in workdir, give the command end
// of file on stdin, and stop its whole process tree at the timeout.

/** Whether a plain bash terminal (not Loopwire's) starts its shell integration within `waitMs`. */
async function integrationStarts(api: ShellIntegrationApi, waitMs: number): Promise<boolean> {
  const terminal = vscode.window.createTerminal({ name: 'integration probe', shellPath: 'bash', isTransient: true });
  let listener: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      listener = api.onDidChangeTerminalShellIntegration((event) => event.terminal === terminal && resolve(true));
      timer = setTimeout(() => resolve(false), waitMs);
      if (api.integration(terminal)) resolve(true);
    });
  } finally {
    listener?.dispose();
    clearTimeout(timer);
    terminal.dispose();
  }
}

for (const mode of ['auto', 'pseudoterminal'] as const) {
  describe(`exec_command in a VS Code terminal (${mode === 'auto' ? 'shell integration where it starts' : 'pseudoterminal, forced'})`, function () {
    this.timeout(60_000);
    const paths: CommandPath[] = [];
    const seen = new Set<CommandPath>();

    async function bench(waitMs?: number) {
      const workspace = await VscodeWorkspace.open(vscode.Uri.file(fixture()), {
        commandTerminal: {
          ...(mode === 'pseudoterminal' ? { shellIntegration: false } : {}),
          ...(waitMs === undefined ? {} : { shellIntegrationWaitMs: waitMs }),
          onRun: (way) => {
            paths.push(way);
            seen.add(way);
          },
        },
      });
      const context = { workspace, reads: new ReadLedger() };
      return (args: Record<string, unknown>) =>
        runToolCall({ kind: 'function', name: 'exec_command', arguments: JSON.stringify(args) }, context);
    }

    after(() => {
      // Which way the host ran them, for the log of the run.
      console.log(`    exec_command (${mode}) ran by: ${[...seen].join(', ') || 'nothing'}, shell ${vscode.env.shell}`);
    });

    it('reports the exit code and output, in workdir, in a terminal named Loopwire', async () => {
      const run = await bench();
      await writeFixture('cmd/sub/data.txt', 'from the file\n');
      const ok = await run({
        cmd: 'echo "in $(basename "$PWD")"; cat data.txt; echo "to stderr" >&2',
        workdir: 'cmd/sub',
      });
      assert.equal(ok.ok, true, ok.output);
      assert.match(ok.output, /^The command finished with exit code 0 after/, ok.output);
      assert.match(ok.output, /^in sub$/m);
      assert.match(ok.output, /^from the file$/m);
      assert.match(ok.output, /^to stderr$/m);
      assert.ok(
        !ok.output.includes('\u001b') && !ok.output.includes('\r'),
        `no terminal escapes or carriage returns reach the model: ${JSON.stringify(ok.output)}`,
      );
      const exact = await run({ cmd: 'echo exact' });
      assert.match(
        exact.output,
        /^The command finished with exit code 0 after \d+\.\d s\.\n--- output ---\nexact$/,
        exact.output,
      );
      const failed = await run({ cmd: 'echo "it broke"; exit 3' });
      assert.equal(failed.ok, false, failed.output);
      assert.match(failed.output, /exit code 3/, failed.output);
      assert.match(failed.output, /it broke/);
      // Quotes, a comment and a second line go through as the shell would take them.
      const quoted = await run({ cmd: `echo 'a "b"' "c'd" # not run\necho second` });
      assert.match(quoted.output, /^a "b" c'd\nsecond$/m, quoted.output);
      assert.ok(
        vscode.window.terminals.some((terminal) => terminal.name === COMMAND_TERMINAL_NAME),
        'a terminal named Loopwire',
      );
    });

    it('runs commands at the same time, each with its own output', async () => {
      const run = await bench();
      const [one, two] = await Promise.all([
        run({ cmd: 'sleep 1; echo one' }),
        run({ cmd: 'echo two; sleep 1; echo two again' }),
      ]);
      assert.match(one.output, /--- output ---\none$/, one.output);
      assert.match(two.output, /--- output ---\ntwo\ntwo again$/, two.output);
    });

    it('gives the command end of file on stdin', async () => {
      const run = await bench();
      const result = await run({ cmd: 'cat; echo done', timeout_s: 20 });
      assert.equal(result.ok, true, result.output);
      assert.match(result.output, /^done$/m);
    });

    it('stops the whole process tree at the timeout', async () => {
      const run = await bench();
      const pidFile = path.join(fixture(), 'cmd', `${mode}.pid`);
      await fs.mkdir(path.dirname(pidFile), { recursive: true });
      const started = Date.now();
      const result = await run({ cmd: `sleep 30 & echo $! > ${mode}.pid; wait`, workdir: 'cmd', timeout_s: 1 });
      assert.equal(result.ok, false);
      assert.match(result.output, /timed out after 1 s and was stopped/);
      assert.ok(Date.now() - started < 15_000, 'stopped well before the sleep would end');
      const pid = Number(await fs.readFile(pidFile, 'utf8'));
      assert.ok(pid > 0, 'the background sleep wrote its pid');
      await eventually(async () => !(await alive(pid)), { timeoutMs: 5000, message: `process ${pid} is gone` });
      // The terminal is usable after a timeout.
      const next = await run({ cmd: 'echo after' });
      assert.match(next.output, /exit code 0[\s\S]*^after$/m, next.output);
    });

    if (mode === 'auto')
      it('runs by shell integration where this VS Code has the API and bash starts it', async function () {
        const api = shellIntegrationApi();
        if (!api) this.skip();
        this.timeout(180_000);
        // Whether bash starts VS Code's shell integration in this host at all, apart from Loopwire: a plain
        // terminal of its own. Where it does not within 15 s (some CI runs' hosts never did: where it starts, it
        // starts in under a second, and a minute's wait never saw a late one), the way
        // cannot be shown here; the fallback is tested below.
        const probe = await integrationStarts(api, 15_000);
        if (!probe) {
          console.log('    (bash started no shell integration in a plain terminal within 15 s here)');
          this.skip();
        }
        // It is the way, not the wait, that is asserted. An earlier test's terminal (3 s wait) may have started
        // too late on a loaded machine; until it starts (it has 30 s), commands take the pseudoterminal, and
        // where it never does, a later command tries a new shell (20 s wait here). Once one starts, commands
        // run in it, and keep doing so.
        const run = await bench(20_000);
        await eventually(
          async () => {
            paths.length = 0;
            await run({ cmd: 'true' });
            return paths[0] === 'shell-integration';
          },
          { timeoutMs: 90_000, intervalMs: 500, message: 'a command run by shell integration' },
        );
        paths.length = 0;
        await run({ cmd: 'true' });
        assert.deepEqual(paths, ['shell-integration'], 'the next command too');
      });

    if (mode === 'auto')
      it('falls back to the pseudoterminal where a new terminal’s shell integration does not start in time', async function () {
        if (!shellIntegrationApi()) this.skip();
        // Waiting 1 ms, every command that finds no idle Loopwire terminal gets the pseudoterminal; the
        // terminals that start late are kept for later commands. Last of its kind here: until one of those
        // starts, no new shell is tried.
        const run = await bench(1);
        paths.length = 0;
        const results = await Promise.all([1, 2, 3, 4].map((n) => run({ cmd: `sleep 0.5; echo "run ${n}"` })));
        results.forEach((result, i) => assert.match(result.output, new RegExp(`--- output ---\\nrun ${i + 1}$`)));
        assert.ok(paths.includes('pseudoterminal'), paths.join(', '));
      });
  });
}
