import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// Finds the text literals that reach the user without going through l10n, by where they stand: what VS Code
// shows (messages and their buttons, quick picks, input boxes, status items, code actions, progress), what
// the page puts on screen (a button's label, an element's text, a title, an aria-label, a placeholder) and
// the label tables both keep (`*_LABELS`, `*_TITLES`…). A literal counts when its text holds a letter; one
// inside `t(…)`, `vscode.l10n.t(…)` or `l10n.t(…)` is translated.

export interface Finding {
  /** `src/…/file.ts:line` */
  where: string;
  text: string;
}

/** Properties whose value VS Code or the page shows. */
const SHOWN_PROPERTIES = new Set([
  'title',
  'placeholder',
  'placeHolder',
  'prompt',
  'tooltip',
  'label',
  'detail',
  'description',
  'aria-label',
  'ariaLabel',
  'alt',
  'validationMessage',
]);
/** Assignments whose value is shown: `el.textContent = …`, `item.tooltip = …`. */
const SHOWN_TARGETS = new Set([
  'textContent',
  'innerText',
  'title',
  'placeholder',
  'tooltip',
  'text',
  'ariaLabel',
  'description',
  'alt',
]);
/** Calls whose string arguments are all shown: VS Code's, anywhere. */
const SHOWN_CALLS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'setStatusBarMessage',
]);
/** The DOM's, in the page only (a CodeActionKind also has an `append`). */
const DOM_CALLS = new Set(['createTextNode', 'append', 'prepend', 'replaceChildren', 'after', 'before']);
/** Tables of labels: `const STATE_LABELS = { accepted: 'Accepted', … }`, `STATUS = { done: { label: … } }`. */
const LABEL_TABLE = /(LABELS?|TITLES?|TEXTS?|NAMES|HINTS|WORDS|BUTTONS|STATUS)$/;

const isL10nCall = (node: ts.Node): boolean => {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return (
    ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && /(^|\.)l10n$/.test(callee.expression.getText())
  );
};

const calleeName = (call: ts.CallExpression): string | undefined => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
};

const propertyName = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

/** The untranslated literals with a letter in `expression`: through ?:, ??, ||, +, templates and arrays. */
function literalsIn(expression: ts.Node, source: ts.SourceFile, found: Finding[], file: string): void {
  const report = (node: ts.Node, text: string) => {
    if (!/\p{L}/u.test(text)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ where: `${file}:${line + 1}`, text });
  };
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return report(node, node.text);
    if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…');
      report(node, text);
      return node.templateSpans.forEach((span) => visit(span.expression));
    }
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return visit(node.expression);
    if (ts.isConditionalExpression(node)) return [node.whenTrue, node.whenFalse].forEach(visit);
    if (ts.isBinaryExpression(node)) return [node.left, node.right].forEach(visit);
    if (ts.isArrayLiteralExpression(node)) return node.elements.forEach(visit);
    if (ts.isObjectLiteralExpression(node)) return shownProperties(node);
  };
  const shownProperties = (object: ts.ObjectLiteralExpression) => {
    for (const property of object.properties)
      if (ts.isPropertyAssignment(property)) {
        const name = propertyName(property.name);
        if (name !== undefined && SHOWN_PROPERTIES.has(name)) visit(property.initializer);
        else if (ts.isObjectLiteralExpression(property.initializer)) shownProperties(property.initializer);
      }
  };
  visit(expression);
}

/** The user-facing literals of one file that skip l10n. */
export function untranslatedIn(file: string, repo: string): Finding[] {
  const relative = path.relative(repo, file);
  const page = relative.split(path.sep).join('/').startsWith('src/webview/');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Finding[] = [];
  const check = (node: ts.Node) => literalsIn(node, source, found, relative);
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) return;
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments;
      if (name !== undefined && (SHOWN_CALLS.has(name) || (page && DOM_CALLS.has(name)))) args.forEach(check);
      // button(label, action, { title }), the page's (dom.ts).
      else if (name === 'button') [args[0], args[2]].forEach((arg) => arg && check(arg));
      // h(tag, { attrs }, ...children): the children are shown.
      else if (name === 'h') args.slice(1).forEach(check);
      else if (name === 'setAttribute' && args[0] && ts.isStringLiteral(args[0]) && SHOWN_PROPERTIES.has(args[0].text))
        check(args[1] as ts.Node);
      else if (name === 'showQuickPick' || name === 'showInputBox' || name === 'withProgress') args.forEach(check);
    } else if (ts.isNewExpression(node)) {
      const name = node.expression.getText();
      if (/^(vscode\.)?(CodeAction|TreeItem|CodeLens|Hover|MarkdownString)$/.test(name)) node.arguments?.forEach(check);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      SHOWN_TARGETS.has(node.left.name.text)
    )
      check(node.right);
    else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      LABEL_TABLE.test(node.name.text) &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    )
      for (const property of node.initializer.properties)
        if (ts.isPropertyAssignment(property)) check(property.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
