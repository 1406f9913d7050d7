import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// Two structural checks over a tree of TypeScript sources, read with the compiler's own parser (never a
// regular expression: a name in a comment, or inside a longer string, is not a use). Used on the project's
// src/ by test/unit/structure.test.ts, and on planted trees to prove that each check bites.

/** Every `.ts` file under `dir`, sorted (declaration files left out: they hold no code). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
    })
    .sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Where a tool's name stands as a whole string literal: `file:line 'name'`, the file relative to `root`. */
export function toolNameLiterals(root: string, files: readonly string[], names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const file of files) {
    const source = parse(file);
    const visit = (node: ts.Node): void => {
      // A literal in a type (`'apply_patch' | …`) is as much a tool's name as one in an expression.
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${path.relative(root, file)}:${line} '${node.text}'`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The modules a file names: static imports and re-exports (`import type` too), `import()` and `require()`. */
function specifiers(source: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) names.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) names.push(expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const [argument] = node.arguments;
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isImport || isRequire) && argument && ts.isStringLiteralLike(argument)) names.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** A relative specifier as the file it loads (`./a` → `a.ts` or `a/index.ts`); undefined: not one of ours. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Each file's imports of other files of the tree, by absolute path. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const inTree = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(parse(file)).flatMap((specifier) => {
      const target = resolve(file, specifier);
      return target !== undefined && inTree.has(target) ? [target] : [];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Every import cycle, one per strongly connected group of files (Tarjan's algorithm), each as the path
 * round it: `a.ts → b.ts → a.ts`, relative to `root`. Empty: the imports form a tree-like order.
 */
export function importCycles(root: string, graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const selfImport = group.length === 1 && (graph.get(file) ?? []).includes(file);
    if (group.length > 1 || selfImport) groups.push(group);
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return groups.map((group) =>
    cyclePath(group, graph)
      .map((file) => path.relative(root, file))
      .join(' → '),
  );
}

/**
 * The shortest path round a group of files that import each other, from its first file (by name) back to it:
 * breadth first from that file, the first import that leads back to it closes the path. A group is strongly
 * connected, so there is always one (a file that imports itself: `[file, file]`).
 */
function cyclePath(group: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0] ?? '';
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length && !cameFrom.has(start); at++) {
    const file = queue[at] ?? '';
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      if (target === start) break;
      queue.push(target);
    }
  }
  const way = [start];
  for (let file = cameFrom.get(start); file !== undefined && file !== start; file = cameFrom.get(file))
    way.unshift(file);
  return [start, ...way];
}
