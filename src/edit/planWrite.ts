// write_file → EditPlan: a new file with exactly the given text, or an existing file's whole text replaced.
// Replacing keeps the file's format (BOM, line ending, final newline), as every other edit does.
import { type EditPlan, type FileSnapshot, createEntry, makePlan, updateEntry } from './editPlan';
import { readLines, splitText } from './textFormat';

export function planWrite(path: string, content: string, existing: FileSnapshot | undefined): EditPlan {
  if (!existing) return makePlan([createEntry(path, content)]);
  const count = readLines(existing.text).lines.length;
  const lines = splitText(content).lines;
  return makePlan([updateEntry(path, existing, [{ start: 0, deleteCount: count, insert: lines }], { matches: [] })]);
}
