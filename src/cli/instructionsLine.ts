import { PROJECT_INSTRUCTIONS_MAX_BYTES, type ProjectInstructions } from '../agent';

// The line `loopwire exec` prints on stderr at a task's start when the project has instructions for agents
// (AGENTS.md, .github/copilot-instructions.md): which files the model is given, and what the cap left out.

/** `(using AGENTS.md, src/AGENTS.md)` and a line per file cut or unreadable; empty when there are none. */
export function projectInstructionsLine(found: ProjectInstructions): string {
  const lines: string[] = [];
  if (found.files.length > 0) lines.push(`(using ${found.files.map((file) => file.label).join(', ')})`);
  for (const file of found.files)
    if (file.sentBytes < file.bytes)
      lines.push(
        `(${file.label}: ${file.sentBytes} of its ${file.bytes} bytes sent: project instructions are capped at ${PROJECT_INSTRUCTIONS_MAX_BYTES / 1024} KiB)`,
      );
  for (const problem of found.unreadable) lines.push(`(not read: ${problem})`);
  return lines.map((line) => `${line}\n`).join('');
}
