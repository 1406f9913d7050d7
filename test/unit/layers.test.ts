import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint, type Linter } from 'eslint';

// The layer rules of eslint.config.mjs, proved on test/fixtures/layers: a miniature src/ in which every
// import marked `// ✗` crosses a forbidden edge of docs/architecture.md. Each must be reported, and nothing else.

const root = path.resolve(__dirname, '../..');
const fixtureRoot = path.join(root, 'test/fixtures/layers');

interface EslintConfigModule {
  LAYERS: Record<string, string[]>;
  layerConfig: (root: string) => Linter.Config[];
}

async function loadConfig(): Promise<EslintConfigModule> {
  return (await import(path.join(root, 'eslint.config.mjs'))) as EslintConfigModule;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** `file:line` of every import the fixture marks as forbidden. */
function markedLines(): string[] {
  return listFiles(path.join(fixtureRoot, 'src'))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (line.includes('// ✗') ? [`${path.relative(fixtureRoot, file)}:${index + 1}`] : [])),
    );
}

describe('layers: imports across a forbidden edge fail the lint', () => {
  let reported: { where: string; ruleId: string | null; message: string }[];

  before(async function () {
    this.timeout(60_000);
    const { layerConfig } = await loadConfig();
    const eslint = new ESLint({ cwd: fixtureRoot, overrideConfigFile: true, overrideConfig: layerConfig(fixtureRoot) });
    const results = await eslint.lintFiles(['src']);
    reported = results.flatMap((result) =>
      result.messages.map((message) => ({
        where: `${path.relative(fixtureRoot, result.filePath)}:${message.line}`,
        ruleId: message.ruleId,
        message: message.message,
      })),
    );
  });

  it('reports every marked import and nothing else', () => {
    const expected = markedLines().sort();
    assert.ok(expected.length >= 30, `the fixture should exercise every edge (found ${expected.length} marks)`);
    assert.deepEqual([...new Set(reported.map((r) => r.where))].sort(), expected);
  });

  it('reports each as a layer violation with a message that names the rule broken', () => {
    for (const { where, ruleId, message } of reported) {
      assert.ok(
        ['import/no-restricted-paths', '@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'].includes(
          ruleId ?? '',
        ),
        `${where}: unexpected ${ruleId}: ${message}`,
      );
      assert.match(message, /src\/|Workspace port|adapter|vscode/, `${where}: ${message}`);
    }
  });

  it('names the edges the design forbids', () => {
    const at = (where: string) =>
      reported
        .filter((r) => r.where === where)
        .map((r) => r.message)
        .join(' | ');
    assert.match(at('src/server/serve.ts:3'), /src\/server may import only src\/protocol/);
    assert.match(at('src/agent/loop.ts:5'), /src\/agent may import only/);
    assert.match(at('src/protocol/schema.ts:5'), /src\/protocol imports zod only/);
    assert.match(at('src/edit/plan.ts:2'), /src\/edit may import only itself/);
    assert.match(at('src/webview/panel.ts:3'), /runs in the browser/);
    assert.match(at('src/tools/readFile.ts:6'), /must not import 'vscode'/);
    assert.match(at('src/agent/loop.ts:7'), /may import 'vscode'/);
    // MCP servers' tools are tools beside the agent, never part of it: the front ends join the two.
    assert.match(at('src/mcp/servers.ts:5'), /src\/mcp may import only src\/tools, src\/workspace/);
    assert.match(at('src/agent/loop.ts:8'), /src\/agent may import only/);
    // The adapters share src/workspace/shared, which is neither's: neither reaches into the other, it into neither.
    assert.match(at('src/workspace/vscode/vscodeWorkspace.ts:3'), /VS Code adapter must not import the Node adapter/);
    assert.match(at('src/workspace/node/nodeWorkspace.ts:5'), /Node adapter must not import the VS Code adapter/);
    assert.match(at('src/workspace/shared/diskPaths.ts:4'), /src\/workspace\/shared is owned by neither adapter/);
    assert.match(at('src/workspace/shared/diskPaths.ts:5'), /src\/workspace\/shared is owned by neither adapter/);
    assert.match(at('src/workspace/shared/diskPaths.ts:6'), /must not import 'vscode'/);
    assert.match(at('src/workspace/port.ts:5'), /port must not depend on its adapters or their shared parts/);
    assert.match(at('src/tools/readFile.ts:7'), /through the Workspace port only/);
    // The extension reaches the agent through its index or its activation entry, never a file of its own.
    assert.match(at('src/extension/extension.ts:12'), /src\/extension imports the agent through src\/agent\/index.ts/);
  });

  it('every folder of src/ is a declared layer, and the fixture covers each', async () => {
    const { LAYERS } = await loadConfig();
    const folders = (dir: string) =>
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    for (const folder of folders(path.join(root, 'src'))) {
      assert.ok(folder in LAYERS, `src/${folder} is not a layer of eslint.config.mjs`);
    }
    assert.deepEqual(folders(path.join(fixtureRoot, 'src')).sort(), Object.keys(LAYERS).sort());
  });

  it('the project’s own sources pass the same rules', async function () {
    this.timeout(60_000);
    const { layerConfig } = await loadConfig();
    // The layer rules alone: a directive that silences another rule (one the full lint runs) is no problem here.
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [...layerConfig(root), { linterOptions: { reportUnusedDisableDirectives: 'off' } }],
    });
    const results = await eslint.lintFiles(['src']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`));
    assert.deepEqual(problems, []);
  });
});
