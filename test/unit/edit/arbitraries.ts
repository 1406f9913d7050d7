import fc from 'fast-check';

// Generators for the property tests: texts in every format the engine keeps (LF/CRLF, BOM, final newline
// or not), lines drawn from a small alphabet so repeats (and ambiguity) are common, and edits on them.

const unit = fc.constantFrom('a', 'b', 'x', ' ', '\t', '-', '+', '@', '*', '\\', 'n', '“', '—', '\u00a0', 'é', '😀');

/** One line of a file: no CR or LF in it. */
export const lineArb = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'x = 1', '  indented', '\tTab', ' ', '', '}', '“q”', 'end  '),
  fc.string({ unit, maxLength: 8 }),
);

/** A file as lines plus its format, and the text that makes. */
export interface GenFile {
  lines: string[];
  eol: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
  text: string;
}

/** A file; the last line is never empty without a final newline (the text would read back differently). */
export const fileArb: fc.Arbitrary<GenFile> = fc
  .record({
    lines: fc.array(lineArb, { maxLength: 12 }),
    eol: fc.constantFrom('\n' as const, '\r\n' as const),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map((file) => {
    const finalNewline = file.lines.length === 0 || file.finalNewline || file.lines.at(-1) === '';
    const body = file.lines.join(file.eol) + (finalNewline && file.lines.length > 0 ? file.eol : '');
    return { ...file, finalNewline, text: (file.bom ? '\uFEFF' : '') + body };
  });

/** A change of a file's lines: sorted, non-overlapping ranges, each replaced by some new lines. */
export interface GenChange {
  start: number;
  deleteCount: number;
  insert: string[];
}

/** Up to four changes of a file with `length` lines. */
export function changesArb(length: number): fc.Arbitrary<GenChange[]> {
  return fc
    .array(
      fc.record({
        at: fc.integer({ min: 0, max: length }),
        deleteCount: fc.integer({ min: 0, max: 3 }),
        insert: fc.array(lineArb, { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((raw) => {
      const changes: GenChange[] = [];
      let cursor = 0;
      for (const change of [...raw].sort((a, b) => a.at - b.at)) {
        const start = Math.max(change.at, cursor);
        if (start > length) break;
        const deleteCount = Math.min(change.deleteCount, length - start);
        if (deleteCount === 0 && change.insert.length === 0) continue;
        changes.push({ start, deleteCount, insert: change.insert });
        // One unchanged line between changes, so each stays its own place.
        cursor = start + deleteCount + 1;
      }
      return changes;
    });
}

/** The lines after `changes`. */
export function changedLines(lines: readonly string[], changes: readonly GenChange[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const change of changes) {
    out.push(...lines.slice(cursor, change.start), ...change.insert);
    cursor = change.start + change.deleteCount;
  }
  out.push(...lines.slice(cursor));
  return out;
}

/**
 * The text an apply_patch update makes of `file` with its lines replaced by `lines`: its BOM and line
 * ending (as far as its text shows them), and, as Codex, a line break at the end even where it had none.
 */
export function withLines(file: GenFile, lines: readonly string[]): string {
  // A file with no line ending at all shows none to keep: new lines get LF.
  const eol = file.text.includes('\n') ? file.eol : '\n';
  return (file.bom ? '\uFEFF' : '') + lines.join(eol) + (lines.length > 0 ? eol : '');
}

/**
 * One `*** Update File` section making `changes`, every line of the file written out (as context or
 * removed) and cut into chunks at `cuts`: each chunk keeps at least one old line, so none is a pure
 * addition (which would go to the end of the file).
 */
export function updateSection(
  path: string,
  lines: readonly string[],
  changes: readonly GenChange[],
  cuts: readonly number[],
): string[] {
  const body: Array<{ text: string; old: boolean }> = [];
  let cursor = 0;
  for (const change of changes) {
    for (; cursor < change.start; cursor++) body.push({ text: ` ${lines[cursor] ?? ''}`, old: true });
    for (let k = 0; k < change.deleteCount; k++) body.push({ text: `-${lines[cursor++] ?? ''}`, old: true });
    for (const line of change.insert) body.push({ text: `+${line}`, old: false });
  }
  for (; cursor < lines.length; cursor++) body.push({ text: ` ${lines[cursor] ?? ''}`, old: true });
  const out = [`*** Update File: ${path}`, '@@'];
  let chunkHasOld = false;
  body.forEach((line, i) => {
    if (cuts.includes(i) && chunkHasOld && body.slice(i).some((rest) => rest.old)) {
      out.push('@@');
      chunkHasOld = false;
    }
    out.push(line.text);
    chunkHasOld ||= line.old;
  });
  return out;
}

/** `*** Begin Patch`, the sections, `*** End Patch`. */
export function patchOf(sections: ReadonlyArray<readonly string[]>): string {
  return ['*** Begin Patch', ...sections.flat(), '*** End Patch', ''].join('\n');
}
