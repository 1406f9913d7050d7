import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  BackgroundCommands,
  ReadLedger,
  type ToolCall,
  type ToolContext,
  type ToolResult,
  runToolCall,
} from '../../src/tools';
import type { Workspace } from '../../src/workspace';

// The contract suite of the Workspace port: every adapter, given the contract fixture (contractFixture.ts),
// must give these outputs for these tool calls. The Node adapter runs it in plain mocha; the VS Code
// adapter runs the same function inside a real extension host.

export interface ContractAdapter {
  /** A name for the suite title. */
  name: string;
  /** A fresh workspace on a fresh copy of the contract fixture, for each test. */
  open(): Promise<{
    workspace: Workspace;
    write(rel: string, text: string): Promise<void>;
    read(rel: string): Promise<string | undefined>;
  }>;
}

type Opened = Awaited<ReturnType<ContractAdapter['open']>>;

const call = (name: string, args: Record<string, unknown>): ToolCall => ({
  kind: 'function',
  name,
  arguments: JSON.stringify(args),
});

export function workspaceContract(adapter: ContractAdapter): void {
  describe(`Workspace contract: ${adapter.name}`, function () {
    let opened: Opened;
    let context: ToolContext;
    const run = (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
      runToolCall(call(name, args), context);

    beforeEach(async () => {
      opened = await adapter.open();
      context = { workspace: opened.workspace, reads: new ReadLedger() };
    });

    describe('find_files', () => {
      it('lists matches sorted, honouring .gitignore and never .git', async () => {
        assert.deepEqual(await run('find_files', { pattern: '**/*.ts' }), {
          ok: true,
          output: "src/app.ts\nsrc/bom.ts\nsrc/greet.ts\nsrc/nested/deep.ts\n(4 files matching '**/*.ts')",
        });
        const all = await run('find_files', { pattern: '**' });
        assert.doesNotMatch(all.output, /dist\/|debug\.log|\.git\//);
      });
      it('says "showing N of M" when capped', async () => {
        const result = await run('find_files', { pattern: '*.ts', max_results: 2 });
        assert.equal(
          result.output,
          "src/app.ts\nsrc/bom.ts\n(showing 2 of 4 files matching '*.ts'; narrow the pattern or raise max_results (up to 2000))",
        );
      });
    });

    describe('search_text', () => {
      it('gives path:line: text per match with totals, skipping ignored and binary files', async () => {
        const result = await run('search_text', { query: 'greet' });
        assert.equal(
          result.output,
          [
            'docs/readme.md:3: Greet people politely.',
            "src/app.ts:1: import { greet } from './greet';",
            "src/app.ts:4:   console.log(greet('world'));",
            'src/greet.ts:1: export function greet(name: string): string {',
            'src/nested/deep.ts:1: export const deep = 1; // TODO: greet deeper',
            '(5 matches in 4 files)',
          ].join('\n'),
        );
      });
      it('filters by include, matches case and regular expressions', async () => {
        assert.equal(
          (await run('search_text', { query: 'Greet', case_sensitive: true })).output,
          'docs/readme.md:3: Greet people politely.\n(1 match in 1 file)',
        );
        assert.equal(
          (await run('search_text', { query: 'greet\\(', is_regex: true, include: 'src/**' })).output,
          "src/app.ts:4:   console.log(greet('world'));\nsrc/greet.ts:1: export function greet(name: string): string {\n(2 matches in 2 files)",
        );
        assert.equal(
          (await run('search_text', { query: 'second', include: '*.txt' })).output,
          'src/crlf.txt:2: second line\n(1 match in 1 file)',
        );
      });
      it('says when nothing matches, and refuses a bad regular expression', async () => {
        assert.deepEqual(await run('search_text', { query: 'zebra' }), { ok: true, output: "No matches for 'zebra'." });
        const bad = await run('search_text', { query: '(', is_regex: true });
        assert.equal(bad.ok, false);
        assert.match(bad.output, /search failed/i);
      });
    });

    describe('locate', () => {
      it('maps a workspace path to where it is, as readFile names it', async () => {
        const { workspace } = opened;
        const where = workspace.locate('./src//greet.ts');
        assert.equal(where.path, 'src/greet.ts');
        assert.ok(path.isAbsolute(where.root), where.root);
        assert.equal(where.absolute, path.join(where.root, 'src', 'greet.ts'));
        assert.equal(await fs.readFile(where.absolute, 'utf8'), await opened.read('src/greet.ts'));
        await opened.write('src/greet.ts', 'changed\n');
        assert.equal(await fs.readFile(where.absolute, 'utf8'), 'changed\n');
        assert.equal(
          await fs.readFile(workspace.locate('src/nested/deep.ts').absolute, 'utf8'),
          await opened.read('src/nested/deep.ts'),
        );
        // The disk is not consulted: a file yet to be written has a place too, and .git/ is a place.
        assert.equal(workspace.locate('new/file.ts').absolute, path.join(where.root, 'new', 'file.ts'));
        assert.equal(workspace.locate('.git/HEAD').absolute, path.join(where.root, '.git', 'HEAD'));
      });
      it('refuses what readFile refuses before reading, with the same codes', () => {
        for (const [given, code] of [
          ['../outside.txt', 'outside_workspace'],
          ['/etc/passwd', 'outside_workspace'],
          ['src/\u2025/x.ts', 'outside_workspace'],
          ['.', 'invalid_path'],
        ] as const)
          assert.throws(() => opened.workspace.locate(given), { name: 'WorkspaceError', code }, given);
      });
    });

    describe('read_file', () => {
      it('returns the lines and an honest footer', async () => {
        assert.deepEqual(await run('read_file', { path: 'src/greet.ts' }), {
          ok: true,
          output:
            'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n(src/greet.ts: lines 1–3 of 3)',
        });
        assert.equal(
          (await run('read_file', { path: 'src/app.ts', start_line: 3, end_line: 4 })).output,
          "export function main(): void {\n  console.log(greet('world'));\n(src/app.ts: lines 3–4 of 5; more with start_line: 5)",
        );
        assert.equal(
          (await run('read_file', { path: 'src/crlf.txt' })).output,
          'first line\nsecond line\nthird line\n(src/crlf.txt: lines 1–3 of 3)',
        );
        assert.equal(
          (await run('read_file', { path: './src/bom.ts' })).output,
          'export const withBom = true;\n(src/bom.ts: lines 1–1 of 1)',
        );
      });
      it('refuses binary files, directories, missing files and escapes', async () => {
        for (const [path, pattern] of [
          ['assets/logo.bin', /binary/],
          ['src', /directory/],
          ['src/missing.ts', /does not exist/],
          ['../outside.txt', /leaves the workspace/],
          ['/etc/passwd', /absolute path outside the workspace/],
          ['escape/secret.txt', /leads out of the workspace/],
        ] as const) {
          const result = await run('read_file', { path });
          assert.equal(result.ok, false, path);
          assert.match(result.output, pattern, path);
        }
      });
    });

    describe('edit_file', () => {
      it('edits through the adapter, keeping CRLF, and answers with the diff', async () => {
        const result = await run('edit_file', {
          path: 'src/crlf.txt',
          edits: [{ old_string: 'second line', new_string: 'second, edited' }],
        });
        assert.equal(result.ok, true, result.output);
        assert.match(result.output, /^M src\/crlf\.txt \(\+1 -1\)/);
        assert.match(result.output, /-second line\n\+second, edited/);
        assert.equal(await opened.read('src/crlf.txt'), 'first line\r\nsecond, edited\r\nthird line\r\n');
      });
      it('keeps a BOM, reports a no-op, and refuses an ambiguous edit naming what to do', async () => {
        await run('edit_file', { path: 'src/bom.ts', edits: [{ old_string: 'true', new_string: 'false' }] });
        assert.equal(await opened.read('src/bom.ts'), '\uFEFFexport const withBom = false;\n');
        const noop = await run('edit_file', {
          path: 'src/bom.ts',
          edits: [{ old_string: 'false', new_string: 'false' }],
        });
        assert.equal(noop.ok, true);
        assert.match(noop.output, /No change/);
        const ambiguous = await run('edit_file', {
          path: 'src/app.ts',
          edits: [{ old_string: 'greet', new_string: 'hail' }],
        });
        assert.equal(ambiguous.ok, false);
        assert.match(ambiguous.output, /Nothing was changed/);
        assert.equal(
          await opened.read('src/app.ts'),
          "import { greet } from './greet';\n\nexport function main(): void {\n  console.log(greet('world'));\n}\n",
        );
      });
      it('refuses an edit planned on a stale read when the change lands on it', async () => {
        await run('read_file', { path: 'src/greet.ts' });
        await opened.write(
          'src/greet.ts',
          'export function greet(name: string): string {\n  return `Hi, ${name}!`;\n}\n',
        );
        const result = await run('edit_file', {
          path: 'src/greet.ts',
          edits: [{ old_string: 'return `Hello, ${name}!`;', new_string: 'return name;' }],
        });
        assert.equal(result.ok, false);
        assert.equal(
          await opened.read('src/greet.ts'),
          'export function greet(name: string): string {\n  return `Hi, ${name}!`;\n}\n',
        );
      });
    });

    describe('apply_patch', () => {
      const patch = [
        '*** Begin Patch',
        '*** Update File: src/greet.ts',
        '@@',
        '-  return `Hello, ${name}!`;',
        '+  return `Hello, ${name}.`;',
        '*** Add File: src/added.ts',
        '+export const added = true;',
        '*** Delete File: docs/readme.md',
        '*** End Patch',
      ].join('\n');
      it('runs as a freeform call and as a function call {input}', async () => {
        const custom = await runToolCall({ kind: 'custom', name: 'apply_patch', input: patch }, context);
        assert.equal(custom.ok, true, custom.output);
        assert.equal(
          custom.output.split('\n\n')[0],
          'M src/greet.ts (+1 -1)\nA src/added.ts (+1 -0)\nD docs/readme.md (+0 -3)',
        );
        assert.equal(await opened.read('src/added.ts'), 'export const added = true;\n');
        assert.equal(await opened.read('docs/readme.md'), undefined);
        const again = await run('apply_patch', { input: patch });
        assert.equal(again.ok, false, 'the same patch cannot apply twice');
        assert.match(again.output, /Nothing was changed/);
      });
      it('writes nothing when any file fails, and nothing under .git or outside', async () => {
        const failing = patch.replace('*** Delete File: docs/readme.md', '*** Delete File: docs/missing.md');
        assert.equal((await run('apply_patch', { input: failing })).ok, false);
        assert.equal(await opened.read('src/added.ts'), undefined);
        for (const target of ['.git/config', '../evil.ts', 'escape/evil.ts']) {
          const result = await run('apply_patch', {
            input: `*** Begin Patch\n*** Add File: ${target}\n+x\n*** End Patch`,
          });
          assert.equal(result.ok, false, target);
          assert.match(result.output, /\.git|workspace/, target);
        }
        assert.equal(await opened.read('.git/config'), undefined);
      });
    });

    describe('write_file', () => {
      it('creates files, and overwrites only what was read and is unchanged', async () => {
        assert.equal((await run('write_file', { path: 'new/dir/file.md', content: 'hello\n' })).ok, true);
        assert.equal(await opened.read('new/dir/file.md'), 'hello\n');
        const unread = await run('write_file', { path: 'src/app.ts', content: 'x\n' });
        assert.equal(unread.ok, false);
        assert.match(unread.output, /not read it/);
        await run('read_file', { path: 'src/app.ts' });
        assert.equal((await run('write_file', { path: 'src/app.ts', content: 'x\n' })).ok, true);
        assert.equal(await opened.read('src/app.ts'), 'x\n');
        await opened.write('src/app.ts', 'the user typed this\n');
        const stale = await run('write_file', { path: 'src/app.ts', content: 'y\n' });
        assert.equal(stale.ok, false);
        assert.match(stale.output, /changed since you last read it/);
        assert.equal(await opened.read('src/app.ts'), 'the user typed this\n');
      });
    });

    describe('get_diagnostics, list_tasks, run_task', () => {
      it('get_diagnostics answers per the adapter capability', async () => {
        const result = await run('get_diagnostics', {});
        if (opened.workspace.capabilities.diagnostics) assert.equal(result.ok, true);
        else assert.deepEqual([result.ok, /not available/.test(result.output)], [false, true]);
      });
      it('lists npm scripts as VS Code names them and runs them with their exit code', async function () {
        if (!opened.workspace.capabilities.tasks) this.skip();
        const list = await run('list_tasks');
        assert.match(list.output, /^npm: ok — /m);
        assert.match(list.output, /^npm: fail — /m);
        const ok = await run('run_task', { label: 'npm: ok' });
        assert.equal(ok.ok, true, ok.output);
        assert.match(ok.output, /exit code 0/);
        assert.match(ok.output, /^42$/m);
        const fail = await run('run_task', { label: 'npm: fail' });
        assert.equal(fail.ok, false);
        assert.match(fail.output, /exit code 3/);
        const missing = await run('run_task', { label: 'npm: nope' });
        assert.deepEqual([missing.ok, /no task 'npm: nope'/i.test(missing.output)], [false, true]);
      });
    });

    describe('exec_command', () => {
      it('runs a shell command in a folder of the workspace with its exit code, and no input', async function () {
        if (opened.workspace.capabilities.commands === false) this.skip();
        this.timeout(30_000);
        const ok = await run('exec_command', { cmd: 'echo "$(basename "$PWD")"; cat; echo 42', workdir: 'src' });
        assert.equal(ok.ok, true, ok.output);
        assert.match(ok.output, /^The command finished with exit code 0 after/);
        assert.match(ok.output, /^src\n42$/m);
        const fail = await run('exec_command', { cmd: 'echo oops >&2; exit 3' });
        assert.deepEqual([fail.ok, /exit code 3/.test(fail.output), /oops/.test(fail.output)], [false, true, true]);
        const slow = await run('exec_command', { cmd: 'sleep 20', timeout_s: 1 });
        assert.match(slow.output, /timed out after 1 s and was stopped/);
        const out = await run('exec_command', { cmd: 'pwd', workdir: '../' });
        assert.deepEqual([out.ok, /outside|leads out|\.\./i.test(out.output)], [false, true]);
      });

      it('runs a command on in the background past yield_time_ms, its stdin reachable with write_stdin', async function () {
        if (opened.workspace.capabilities.commands === false) this.skip();
        this.timeout(30_000);
        const sessions = new BackgroundCommands();
        context = { ...context, sessions };
        const started = await run('exec_command', {
          cmd: 'echo ready; while read line; do echo "got $line"; done; echo bye',
          workdir: 'src',
          yield_time_ms: 1000,
        });
        assert.equal(started.ok, true, started.output);
        assert.match(started.output, /still running, in the background as session_id 1\.[^]*\nready$/);
        const echoed = await run('write_stdin', { session_id: 1, chars: 'hello\n', yield_time_ms: 1000 });
        assert.match(echoed.output, /\ngot hello$/);
        const slow = await run('exec_command', { cmd: 'sleep 30', yield_time_ms: 300 });
        assert.match(slow.output, /session_id 2\./);
        await sessions.stopAll();
        const stopped = await run('write_stdin', { session_id: 2 });
        assert.match(stopped.output, /There is no session 2/);
      });
    });

    it('refuses invalid arguments naming the field, and unknown tools', async () => {
      const bad = await run('read_file', { path: 'src/app.ts', start_line: 0 });
      assert.equal(bad.ok, false);
      assert.match(bad.output, /^Invalid arguments for read_file: start_line: /);
      const edits = await run('edit_file', { path: 'a.ts', edits: [{ old_string: 1 }] });
      assert.match(edits.output, /edits\.0\.old_string: .*edits\.0\.new_string: /);
      assert.match(
        (await runToolCall({ kind: 'function', name: 'read_file', arguments: '{oops' }, context)).output,
        /not valid JSON/,
      );
      assert.match((await run('rm_rf', {})).output, /There is no tool 'rm_rf'/);
    });
  });
}
