import * as path from 'node:path';
import * as z from 'zod';

// A review's findings, as the model gives them in the fenced JSON block its answer ends with (reviewPrompt.ts),
// after Codex's review output (title, body, a priority, a file and line range, a confidence) with a severity
// in words and a suggested fix of its own. What the model says is a stranger's text: each finding is checked
// alone, one that does not fit is named with why and the others kept, a path outside the repository is not a
// finding, and an answer with no block is a problem said in words, never a crash.

export const ReviewSeverity = z.enum(['critical', 'high', 'medium', 'low']);

/** One finding: what is wrong, where (the file from the repository's root, 1-based lines), and the fix. */
export const ReviewFinding = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().default(''),
  severity: ReviewSeverity,
  file: z.string().trim().min(1),
  line: z.int().positive(),
  end_line: z.int().positive().optional(),
  suggestion: z.string().optional(),
  confidence: z.number().min(0).max(1).optional(),
});

/** The findings of a review and the verdict on the change as a whole; `problems`, what could not be read. */
export const ReviewReport = z.object({
  findings: z.array(ReviewFinding),
  verdict: z.enum(['correct', 'incorrect']).optional(),
  explanation: z.string().optional(),
  /** Why the answer, or one of its findings, could not be used: each for the user to read. */
  problems: z.array(z.string()).optional(),
});

export type ReviewSeverity = z.infer<typeof ReviewSeverity>;
export type ReviewFinding = z.infer<typeof ReviewFinding>;
export type ReviewReport = z.infer<typeof ReviewReport>;

const Envelope = z.object({
  findings: z.array(z.unknown()),
  verdict: z.unknown().optional(),
  explanation: z.unknown().optional(),
});

/**
 * The report in the model's final `answer`: its last fenced JSON block (or the whole answer, where it is JSON),
 * each finding checked; a file given as an absolute path inside `root` is made relative, one outside dropped.
 */
export function parseReview(answer: string, root?: string): ReviewReport {
  const json = lastJsonBlock(answer);
  if (json === undefined)
    return { findings: [], problems: ['The review’s answer holds no ```json block with its findings.'] };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { findings: [], problems: [`The review’s findings are not valid JSON: ${(error as Error).message}`] };
  }
  const envelope = Envelope.safeParse(value);
  if (!envelope.success) return { findings: [], problems: ['The review’s JSON block has no "findings" list.'] };
  const findings: ReviewFinding[] = [];
  const problems: string[] = [];
  envelope.data.findings.forEach((raw, index) => {
    const parsed = ReviewFinding.safeParse(raw);
    if (!parsed.success) return void problems.push(`Finding ${index + 1} left out: ${issueText(parsed.error)}`);
    const file = repositoryPath(parsed.data.file, root);
    if (file === undefined)
      return void problems.push(`Finding ${index + 1} left out: ${parsed.data.file} is outside the repository`);
    findings.push({ ...parsed.data, file });
  });
  const verdict = z.enum(['correct', 'incorrect']).safeParse(envelope.data.verdict);
  const explanation = typeof envelope.data.explanation === 'string' ? envelope.data.explanation : undefined;
  return {
    findings,
    ...(verdict.success ? { verdict: verdict.data } : {}),
    ...(explanation === undefined ? {} : { explanation }),
    ...(problems.length > 0 ? { problems } : {}),
  };
}

/** The text of the last ```json (or bare ```) block that holds an object; the answer itself where it is one. */
function lastJsonBlock(answer: string): string | undefined {
  const blocks = [...answer.matchAll(/```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/gi)].map(
    (match) => match[1] ?? '',
  );
  const last = blocks.reverse().find((block) => block.trim().startsWith('{'));
  if (last !== undefined) return last;
  const trimmed = answer.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed : undefined;
}

/**
 * `file` from the repository's root (forward slashes), or undefined where it leaves it or names no file in it:
 * `..` and `.` (a comment thread and Fix with Loopwire would open a folder above, or the root), and a path that
 * is absolute once its backslashes are slashes (`\\etc\\passwd` read as `/etc/passwd`, outside the root).
 */
function repositoryPath(file: string, root: string | undefined): string | undefined {
  const slashed = file.replace(/\\/g, '/').replace(/^\.\//, '');
  if (path.isAbsolute(file) || path.posix.isAbsolute(slashed)) {
    if (root === undefined) return undefined;
    const relative = path.relative(root, path.isAbsolute(file) ? file : slashed);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
      ? undefined
      : relative.split(path.sep).join('/');
  }
  const normal = path.posix.normalize(slashed);
  return normal === '.' || normal === '..' || normal.startsWith('../') ? undefined : normal;
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.map(String).join('.') || 'the finding'}: ${issue.message}`;
}
