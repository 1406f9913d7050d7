import { type AgentEvent, type ReviewReport, parseReview } from '../../agent';
import { t } from '../cliL10n';
import { ExitCode } from '../cliIo';
import { terminalText } from './terminalText';

// `loopwire exec "/review"`: the findings read from the model's answer once the task has completed, as one
// `review` event in --json's stream, or for people: a line a finding (severity, file:line, title) with its
// suggestion under it. What the model wrote is a stranger's text: its control characters (a terminal's escape
// sequences) are not printed. Findings do not change the exit code (a review that found bugs did its job:
// 0); an answer with no findings block is a review that did not happen: 1.

type ReviewEvent = Extract<AgentEvent, { type: 'review' }>;

/** The review event of the task's final `answer`, read against the repository at `root`. */
export function reviewEvent(answer: string, root: string): ReviewEvent {
  return { type: 'review', ...parseReview(answer, root) };
}

/** The exit code of a completed review: 0 once its answer was read (findings or none), 1 where it was not. */
export function reviewExitCode(report: ReviewReport): ExitCode {
  const unread = report.findings.length === 0 && report.problems !== undefined && report.verdict === undefined;
  return unread ? ExitCode.failed : ExitCode.ok;
}

const SEVERITY_CODES = { critical: '1;31', high: '31', medium: '33', low: '36' } as const;

/** The findings as the terminal shows them, after the model's answer. */
export function reviewText(report: ReviewReport, color: boolean): string {
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const count =
    report.findings.length === 0
      ? t('Review: no findings.')
      : report.findings.length === 1
        ? t('Review: 1 finding.')
        : t('Review: {0} findings.', report.findings.length);
  const lines = ['', paint('1', count)];
  for (const finding of report.findings) {
    const where = `${terminalText(finding.file)}:${finding.line}${finding.end_line ? `-${finding.end_line}` : ''}`;
    const severity = paint(SEVERITY_CODES[finding.severity], finding.severity.toUpperCase().padEnd(8));
    lines.push(`  ${severity} ${where}  ${terminalText(finding.title)}`);
    const suggestion = finding.suggestion?.trim();
    if (suggestion)
      lines.push(`           ${t('suggestion: {0}', terminalText(suggestion).replace(/\n/g, '\n             '))}`);
  }
  for (const problem of report.problems ?? []) lines.push(paint('2', `(${t('review: {0}', problem)})`));
  return `${lines.join('\n')}\n`;
}
