import { codeBlock } from '../commands/codeBlock';

// What an inline request says to the model (plain: tested without VS Code): the lines it is about, where they
// are, in which language, the problems the editor shows there, and what to do — the user's words for Ctrl+I,
// the problem itself for the quick fix. The model is told to change that one file in place, so the edit it
// writes is the one that streams into the editor.

/** Lines taken around the cursor when nothing is selected, above and below it. */
export const AROUND_CURSOR = 5;

/** A problem the editor shows in the range (1-based line and column). */
export interface InlineProblem {
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

export interface InlineRequest {
  /** `edit`: Ctrl+I with the user's words; `fix`: the light bulb's Fix with Loopwire on `problem`. */
  kind: 'edit' | 'fix';
  /** The workspace path of the file, as the tools name it. */
  path: string;
  languageId: string;
  /** 1-based first and last lines of the range. */
  first: number;
  last: number;
  /** The range's lines, `first` to `last`. */
  lines: readonly string[];
  /** The user's words (`edit`); for `fix`, the problem's message. */
  instruction: string;
  /** The problem a fix is for; absent for an edit. */
  problem?: InlineProblem;
  /** The problems in the range (the one fixed included). */
  problems: readonly InlineProblem[];
  /** An edit with nothing selected: the cursor's 1-based line (the chat's entry names it). */
  cursor?: number;
}

/**
 * The 1-based lines a request covers: the selection's, or {@link AROUND_CURSOR} lines each side of the
 * cursor's 0-based `line` in a document of `lineCount` lines.
 */
export function linesAround(line: number, lineCount: number, around = AROUND_CURSOR): { first: number; last: number } {
  const last = Math.max(1, lineCount);
  return { first: Math.max(1, line + 1 - around), last: Math.min(last, line + 1 + around) };
}

/** The problems that touch lines `first`..`last` (1-based), errors first, then by line. */
export function problemsIn(
  problems: readonly (InlineProblem & { endLine?: number })[],
  first: number,
  last: number,
): InlineProblem[] {
  const rank = { error: 0, warning: 1, info: 2, hint: 3 } as const;
  return problems
    .filter((problem) => problem.line <= last && (problem.endLine ?? problem.line) >= first)
    .map(({ endLine: _end, ...problem }) => problem)
    .sort((a, b) => rank[a.severity] - rank[b.severity] || a.line - b.line || a.column - b.column);
}

const describe = (problem: InlineProblem) =>
  `- line ${problem.line}, column ${problem.column}: ${problem.severity}${problem.source ? ` (${problem.source})` : ''}: ${problem.message}`;

/** The request's first line: what to do and where (the embedded backend's scenarios match on it). */
export function inlineHeadline(request: InlineRequest): string {
  const lines = request.first === request.last ? `line ${request.first}` : `lines ${request.first}–${request.last}`;
  if (request.kind === 'fix' && request.problem)
    return `Fix this problem inline in ${request.path} at line ${request.problem.line}, column ${request.problem.column}: ${request.problem.message}`;
  return `Edit ${request.path} inline, ${lines}: ${request.instruction}`;
}

/** The whole prompt of an inline request. */
export function inlinePrompt(request: InlineRequest): string {
  const numbered = request.lines.map((text, i) => `${String(request.first + i).padStart(4)} | ${text}`).join('\n');
  const others = request.problems.filter((problem) => problem !== request.problem);
  const parts = [
    inlineHeadline(request),
    '',
    `The lines of ${request.path} (${request.languageId}), numbered:`,
    '',
    codeBlock(numbered, request.languageId),
  ];
  if (others.length > 0) parts.push('', 'Problems the editor shows in these lines:', ...others.map(describe));
  parts.push(
    '',
    // Why: the edit streams into the open editor, where the user keeps or undoes it; another file would not show.
    `This is an inline edit in the user's editor: change ${request.path} only, around these lines, in one edit ` +
      'call where you can. Read other files first if you need to. Then say what you changed in one short sentence.',
  );
  return parts.join('\n');
}
