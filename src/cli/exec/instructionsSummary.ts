import { PROJECT_INSTRUCTIONS_MAX_BYTES, type ProjectInstructions } from '../../agent';
import { t } from '../cliL10n';

// The line `loopwire exec` prints on stderr at a task's start when the project has instructions for agents
// (AGENTS.md, .github/copilot-instructions.md): which files the model is given, and what the cap left out.

/** `(using AGENTS.md, src/AGENTS.md)` and a line per file cut or unreadable; empty when there are none. */
export function projectInstructionsLine(found: ProjectInstructions): string {
  const lines: string[] = [];
  if (found.files.length > 0) lines.push(t('(using {0})', found.files.map((file) => file.label).join(', ')));
  for (const file of found.files)
    if (file.sentBytes < file.bytes)
      lines.push(
        t(
          '({0}: {1} of its {2} bytes sent: project instructions are capped at {3} KiB)',
          file.label,
          file.sentBytes,
          file.bytes,
          PROJECT_INSTRUCTIONS_MAX_BYTES / 1024,
        ),
      );
  for (const problem of found.unreadable) lines.push(t('(not read: {0})', problem));
  return lines.map((line) => `${line}\n`).join('');
}
