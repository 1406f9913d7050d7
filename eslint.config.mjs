// Lint rules, and the layers of docs/architecture.md as rules that fail the build when a file imports across a
// forbidden edge. `layerConfig` is exported so test/unit/layers.test.ts can prove, on a fixture tree, that
// every edge below bites.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/**
 * Each folder of src/ and the folders it may import. Everything else under src/ is off limits to it, so a
 * new folder is forbidden everywhere until it is added here. `workspace` holds the port, its adapters and
 * `workspace/shared` (what both adapters use, owned by neither); these get their own, narrower rules below.
 */
export const LAYERS = {
  protocol: [],
  edit: [],
  sandbox: [],
  workspace: ['protocol', 'edit', 'sandbox'],
  tools: ['protocol', 'edit', 'workspace', 'sandbox'],
  agent: ['protocol', 'edit', 'tools', 'workspace', 'sandbox'],
  mcp: ['tools', 'workspace', 'sandbox'],
  server: ['protocol'],
  webview: ['protocol'],
  extension: ['protocol', 'edit', 'tools', 'agent', 'mcp', 'workspace', 'server', 'sandbox'],
  cli: ['protocol', 'edit', 'tools', 'agent', 'mcp', 'workspace', 'server', 'sandbox'],
};

/** The only folders that may import `vscode`. */
const VSCODE_FOLDERS = ['workspace/vscode', 'extension'];
/** Folders that run outside Node (webview) or do no I/O at all (edit; protocol is stricter still): no Node built-ins. */
const NO_NODE_FOLDERS = ['edit', 'webview'];
/** The port's callers see the interface only; which adapter runs is decided by extension/ or cli/. */
const PORT_ONLY_FOLDERS = ['tools', 'agent'];

/** Client-side folders: of them, only src/agent/transport speaks to the network's libraries (the server has its own). */
const NETWORK_CLIENT_FOLDERS = ['agent', 'extension', 'cli'];
const NETWORK_LIBRARIES = ['ws', 'undici'];

const nodeBuiltins = [...new Set(builtinModules.map((name) => name.replace(/^node:/, '')))];

function restrictedImports(folder) {
  if (folder === 'protocol') {
    // Stricter than the rules below, which it subsumes: one clear message instead of two.
    const message = 'src/protocol imports zod only (docs/architecture.md).';
    return ['error', { patterns: [{ regex: '^(?!zod(/|$)|\\.)', message }] }];
  }
  const paths = [];
  const patterns = [];
  if (!VSCODE_FOLDERS.includes(folder)) {
    paths.push({
      name: 'vscode',
      message: `src/${folder} must not import 'vscode': only ${VSCODE_FOLDERS.map((f) => `src/${f}`).join(' and ')} may (docs/architecture.md).`,
    });
  }
  if (NETWORK_CLIENT_FOLDERS.includes(folder)) {
    for (const name of NETWORK_LIBRARIES)
      paths.push({
        name,
        message: `Only src/agent/transport may import '${name}' on the client side: sockets and requests go through it.`,
      });
  }
  if (NO_NODE_FOLDERS.includes(folder)) {
    const why = folder === 'webview' ? 'runs in the browser' : 'is pure: no I/O';
    for (const name of nodeBuiltins)
      paths.push({ name, message: `src/${folder} ${why}; it must not import Node's '${name}'.` });
    patterns.push({ group: ['node:*'], message: `src/${folder} ${why}; it must not import Node built-ins.` });
  }
  return ['error', { paths, patterns }];
}

/** The same `vscode` check for `import('vscode')`, which the import rules do not see. */
const dynamicVscodeImport = {
  selector: "ImportExpression[source.value='vscode']",
  message: "Only src/workspace/vscode and src/extension may import 'vscode'.",
};

/**
 * Flat-config entries that enforce the layers for the tree rooted at `root` (a folder holding `src/`).
 * @param {string} root absolute path
 */
export function layerConfig(root) {
  const zones = Object.entries(LAYERS).map(([folder, allowed]) => ({
    target: `./src/${folder}`,
    from: './src',
    except: [`./${folder}`, ...allowed.map((f) => `./${f}`)],
    message: `src/${folder} may import only ${allowed.length ? allowed.map((f) => `src/${f}`).join(', ') : 'itself'} (docs/architecture.md).`,
  }));
  zones.push(
    ...PORT_ONLY_FOLDERS.map((folder) => ({
      target: `./src/${folder}`,
      from: ['./src/workspace/node', './src/workspace/vscode', './src/workspace/shared'],
      message: `src/${folder} reaches the editor through the Workspace port only, never an adapter or the adapters' shared parts.`,
    })),
    {
      target: './src/workspace/*.ts',
      from: ['./src/workspace/node', './src/workspace/vscode', './src/workspace/shared'],
      message: 'The Workspace port must not depend on its adapters or their shared parts (src/workspace/shared).',
    },
    {
      target: './src/workspace/node',
      from: './src/workspace/vscode',
      message: 'The Node adapter must not import the VS Code adapter (it would drag in vscode).',
    },
    {
      target: './src/workspace/vscode',
      from: './src/workspace/node',
      message:
        'The VS Code adapter must not import the Node adapter: what both adapters use lives in src/workspace/shared.',
    },
    {
      target: './src/workspace/shared',
      from: ['./src/workspace/node', './src/workspace/vscode'],
      message:
        'src/workspace/shared is owned by neither adapter: it must not import src/workspace/node or src/workspace/vscode.',
    },
    {
      // Activation loads dist/extension.js, which must stay small: what it needs of the agent is a named entry,
      // src/agent/activation.ts, and everything else comes through the agent's index (in dist/runtime.js).
      target: './src/extension',
      from: './src/agent',
      except: ['./index.ts', './activation.ts'],
      message:
        'src/extension imports the agent through src/agent/index.ts, or src/agent/activation.ts for what activation needs, never one of its files.',
    },
    {
      target: './src/cli',
      from: './src/workspace/vscode',
      message: 'src/cli runs outside VS Code: use the Node adapter.',
    },
  );

  // A subfolder's entry comes after its folder's, so that its rules are the ones that hold there.
  const folders = Object.keys(LAYERS).flatMap((folder) => {
    if (folder === 'workspace') return ['workspace/node', 'workspace/vscode', 'workspace/shared', 'workspace'];
    return folder === 'agent' ? ['agent', 'agent/transport'] : [folder];
  });
  const perFolder = folders.map((folder) => ({
    name: `loopwire/layers/${folder}`,
    files: folder === 'workspace' ? ['src/workspace/*.ts'] : [`src/${folder}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictedImports(folder),
      'no-restricted-syntax': VSCODE_FOLDERS.includes(folder) ? 'off' : ['error', dynamicVscodeImport],
    },
  }));

  return [
    {
      name: 'loopwire/layers',
      files: ['src/**/*.ts'],
      languageOptions: { parser: tseslint.parser, sourceType: 'module' },
      plugins: { import: importPlugin, '@typescript-eslint': tseslint.plugin },
      settings: { 'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] } } },
      rules: { 'import/no-restricted-paths': ['error', { basePath: root, zones }] },
    },
    ...perFolder,
  ];
}

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-test/',
      'out/',
      'node_modules/',
      'test/fixtures/',
      'test/host/fixture/',
      '.vscode-test/',
      '*.vsix',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        require: 'readonly',
        __dirname: 'readonly',
        module: 'writable',
      },
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  layerConfig(import.meta.dirname),
);
