import type { ReviewChanges } from './reviewChanges';

// The prompt of a review, in our words: what to look for, what not to report, and the one form the answer
// takes (a JSON block, reviewFindings.ts reads it), followed by the changes themselves. The review runs with
// tools that only read, so the model can open any file to check a line before it cites it.

/** The first line of every review prompt: how a front end (and the scripted model) knows a review. */
export const REVIEW_HEADING = 'Review the code changes below, as a careful colleague would before they are merged.';

const GUIDANCE = `${REVIEW_HEADING}

What to report:
- Problems the change introduces and that its author would want fixed before merging: wrong results, crashes, data loss, security holes, races, resource leaks, broken error handling, behaviour that contradicts the code's own comments, tests or documentation, and serious performance mistakes.
- Only what you can point to in the changed code (a line the change adds or alters, or one it breaks by changing something else). Do not report what was already wrong before the change, matters of taste, formatting, or naming, unless they hide a bug.
- Each problem once, at the line where it is best fixed. Say why it is wrong and what happens when it goes wrong (the input, the consequence), briefly and without hedging. Prefer a few findings you are sure of to many guesses; no findings is a fine answer for a sound change.

How to check: you can read any file of the workspace and run commands that only read (git log, git show, git diff with a path) to see more than the diff shows; nothing you run may change a file, and this review writes nothing. Cite lines of the files as they are after the change (the right-hand side of the diff), and make sure each line number is right by reading the file when in doubt.

Answer with a short summary in prose, then exactly one fenced \`\`\`json block holding:
{"findings": [{"title": "...", "body": "...", "severity": "critical" | "high" | "medium" | "low", "file": "path/from/the/repository/root", "line": 12, "end_line": 14, "suggestion": "the corrected code, or what to do", "confidence": 0.8}], "verdict": "correct" | "incorrect", "explanation": "one or two sentences on the change as a whole"}
- title: at most 80 characters, saying what is wrong. body: why, in Markdown, a short paragraph.
- severity: critical (breaks the product or its security for many), high (a real bug most users of the code meet), medium (a bug in a less common case), low (worth fixing, harmless meanwhile).
- line (and end_line for a range): 1-based, in the file after the change. suggestion: the code that should replace those lines, or a sentence where code cannot say it. confidence: 0 to 1.
- No findings: "findings": [].`;

/** The whole first prompt of a review: the guidance, then what is under review and its changes. */
export function reviewPrompt(changes: ReviewChanges, focus?: string): string {
  const parts = [GUIDANCE, '', `Under review: ${changes.title}.`];
  if (focus !== undefined && focus.trim() !== '')
    parts.push(`The user asks you to look especially at: ${focus.trim()}`);
  if (changes.log !== undefined) parts.push('', '$ git log --stat (the commits under review)', changes.log.trimEnd());
  parts.push(
    '',
    `$ ${changes.diffCommand}${changes.target.kind === 'working' ? ' (and the untracked files, as added)' : ''}`,
  );
  parts.push(
    changes.shown.length === 0 && changes.omitted.length === 0
      ? '(no changes)'
      : changes.shown
          .map((file) => file.text)
          .join('')
          .trimEnd(),
  );
  if (changes.omitted.length > 0) {
    parts.push(
      '',
      `Not shown above, for size (${changes.omitted.length} more files): read each with \`${changes.diffCommand} -- PATH\` (an untracked file: read the file itself):`,
    );
    for (const file of changes.omitted) parts.push(`- ${file.file} (${changedLines(file.text)} lines changed)`);
  }
  return parts.join('\n');
}

/** The lines a file's diff adds or removes. */
function changedLines(text: string): number {
  return text.split('\n').filter((line) => /^[+-](?![+-]{2} )/.test(line)).length;
}
