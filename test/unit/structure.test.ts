import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BUILTIN_TOOLS } from '../../src/tools';
import { importCycles, importGraph, sourceFiles, toolNameLiterals } from './support/sourceScan';

// Two rules of docs/architecture.md that no lint zone states: a tool's name is known to its own file only
// (everything else asks the tool set, so a new tool changes no other file), and no file of src imports in a
// cycle. Each check is first shown to bite on a tree planted in a temporary folder, then run on src. And the
// developers' guide's size rule: no file of src over 400 lines, nor of the panel's stylesheets or the scripts;
// the tests' files, whose scenarios run long, at 500.

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');
const tools = path.join(src, 'tools');
/** The names come from the registry itself, so a tool added there is checked without touching this test. */
const toolNames = new Set(BUILTIN_TOOLS.names);

/** Writes `files` (path → text) under a fresh temporary folder and returns it. */
function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'loopwire-structure-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** The files in `dir` (and its subfolders, if `deep`) whose names end in `ending`, sorted. */
function filesEndingIn(dir: string, ending: string, deep: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: deep })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ending))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** `file: N lines` (relative to the project) for each of `files` longer than `limit` lines. */
function longFiles(files: readonly string[], limit: number): string[] {
  return files
    .map((file) => ({ file: path.relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > limit)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

describe('structure: tool names stay on the tools, no import cycle, no long file', () => {
  const planted: string[] = [];
  after(() => {
    for (const dir of planted) rmSync(dir, { recursive: true, force: true });
  });

  it('the registry has names to look for', () => {
    assert.ok(toolNames.size >= 9, `expected the built-in tools, got ${[...toolNames].join(', ')}`);
  });

  it('a planted tool-name literal is found; a name in a comment or inside a longer string is not', () => {
    const [name] = toolNames;
    assert.ok(name !== undefined);
    const dir = plant({
      'ui/card.ts': [
        `// Shows the ${name} tool's card.`,
        `export const described = 'calls ${name} first';`,
        `export const special = (tool: string) => tool === '${name}';`,
        `export type Named = \`${name}\`;`,
      ].join('\n'),
    });
    planted.push(dir);
    assert.deepEqual(toolNameLiterals(dir, sourceFiles(dir), toolNames), [
      `${path.join('ui', 'card.ts')}:3 '${name}'`,
      `${path.join('ui', 'card.ts')}:4 '${name}'`,
    ]);
  });

  it('no tool name stands as a string literal in src outside src/tools', () => {
    const outside = sourceFiles(src).filter((file) => !file.startsWith(tools + path.sep));
    assert.ok(outside.length > 100, `src should be read whole (read ${outside.length} files)`);
    assert.deepEqual(toolNameLiterals(root, outside, toolNames), []);
  });

  it('a planted cycle is found (two files, three, one importing itself); an import in one direction is not', () => {
    const dir = plant({
      'a.ts': "import { b } from './b';\nexport const a = b + 1;",
      'b.ts': "import type { a } from './a.js';\nexport const b = 1;",
      'loop/one.ts': "export { two } from './two';\nexport const one = 1;",
      'loop/two.ts': "export const two = async () => (await import('./three')).three;",
      'loop/three.ts': "import { one } from './index';\nexport const three = one;",
      'loop/index.ts': "export * from './one';",
      'self.ts': "import './self';",
      'leaf.ts': "import { a } from './a';\nimport { z } from 'zod';\nexport const leaf = [a, z];",
    });
    planted.push(dir);
    assert.deepEqual(importCycles(dir, importGraph(sourceFiles(dir))).sort(), [
      'a.ts → b.ts → a.ts',
      [
        path.join('loop', 'index.ts'),
        path.join('loop', 'one.ts'),
        path.join('loop', 'two.ts'),
        path.join('loop', 'three.ts'),
        path.join('loop', 'index.ts'),
      ].join(' → '),
      'self.ts → self.ts',
    ]);
  });

  it('no file of src imports in a cycle', () => {
    const graph = importGraph(sourceFiles(src));
    assert.ok([...graph.values()].flat().length > 500, 'the imports of src should be read');
    assert.deepEqual(importCycles(root, graph), []);
  });

  it('no file of src is over 400 lines (a file that grows past it splits by job first)', () => {
    const files = sourceFiles(src);
    assert.ok(files.length > 200, 'the files of src should be read');
    assert.deepEqual(longFiles(files, 400), []);
  });

  it("nor is a stylesheet of the panel's (media/*.css) or a script of scripts/", () => {
    const styles = filesEndingIn(path.join(root, 'media'), '.css', false);
    const scripts = filesEndingIn(path.join(root, 'scripts'), '.js', true);
    assert.ok(styles.length > 5 && scripts.length > 10, `read ${styles.length} stylesheets, ${scripts.length} scripts`);
    assert.deepEqual(longFiles([...styles, ...scripts], 400), []);
  });

  it('nor is a file of test/ over 500 lines (a suite grows by scenario: a second file, its setup shared)', () => {
    const files = filesEndingIn(path.join(root, 'test'), '.ts', true);
    assert.ok(files.length > 200, `the files of test should be read (read ${files.length})`);
    assert.deepEqual(longFiles(files, 500), []);
  });

  it('src/agent, src/extension and src/extension/chat keep 12 files or fewer at their roots; the rest is in rooms named for their job', () => {
    for (const folder of ['agent', 'extension', path.join('extension', 'chat')]) {
      const dir = path.join(src, folder);
      const rootFiles = filesEndingIn(dir, '.ts', false);
      assert.ok(rootFiles.length > 0, `src/${folder} has files at its root`);
      assert.ok(rootFiles.length <= 12, `src/${folder} has ${rootFiles.length} files at its root: put them in a room`);
      // Each room says what it holds, in a README or its first file's opening comment.
      for (const room of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
        const readme = path.join(dir, room.name, 'README.md');
        assert.ok(existsSync(readme), `src/${folder}/${room.name} has no README.md saying what it holds`);
      }
    }
  });

  it("of the chat's files only src/extension/chat/window imports vscode: the rest is tested without VS Code", () => {
    const chat = path.join(src, 'extension', 'chat');
    const window = path.join(chat, 'window') + path.sep;
    const files = filesEndingIn(chat, '.ts', true);
    const vscodeUsers = files.filter((file) => /from 'vscode'|import\('vscode'\)/.test(readFileSync(file, 'utf8')));
    assert.ok(
      vscodeUsers.some((file) => file.startsWith(window)),
      'the window room should be read',
    );
    assert.deepEqual(
      vscodeUsers.filter((file) => !file.startsWith(window)).map((file) => path.relative(root, file)),
      [],
    );
  });
});
