// When the cascade matched lines at another indentation than the model wrote them, the lines the model adds
// are moved to the file's indentation: shifted by the same prefix, or converted between tabs and spaces.

const leading = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';
const isBlank = (line: string): boolean => line.trim() === '';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The indentation step of some lines: a tab if any is tab-indented, else the gcd of their space counts. */
function indentUnit(lines: readonly string[]): string | undefined {
  let step = 0;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = leading(line);
    if (indent.includes('\t')) return '\t';
    if (indent.length > 0) step = gcd(step, indent.length);
  }
  return step > 0 ? ' '.repeat(step) : undefined;
}

/** An indentation as whole units of `unit` plus what is left over. */
function depthOf(indent: string, unit: string): { depth: number; rest: string } {
  let depth = 0;
  let at = 0;
  while (indent.startsWith(unit, at)) {
    depth++;
    at += unit.length;
  }
  return { depth, rest: indent.slice(at) };
}

/** Line pairs (as written, as found in the file) that say something about indentation. */
type Pairs = ReadonlyArray<readonly [string, string]>;

/** The same lines shifted by a common prefix: the model's `from` became the file's `to`. */
function byPrefix(pairs: Pairs): ((indent: string) => string) | undefined {
  const [first] = pairs;
  if (!first) return undefined;
  const from = leading(first[0]);
  const to = leading(first[1]);
  const fits = pairs.every(([written, found]) => {
    const indent = leading(written);
    return indent.startsWith(from) && leading(found) === to + indent.slice(from.length);
  });
  if (!fits) return undefined;
  return (indent) => (indent.startsWith(from) ? to + indent.slice(from.length) : indent);
}

/** The same nesting in another unit (tabs for spaces, 2 spaces for 4), possibly shifted by whole levels. */
function byUnit(pairs: Pairs, writtenLines: readonly string[]): ((indent: string) => string) | undefined {
  const writtenUnit = indentUnit(writtenLines);
  const fileUnit = indentUnit(pairs.map(([, found]) => found)) ?? writtenUnit;
  const [first] = pairs;
  if (!first || !writtenUnit || !fileUnit) return undefined;
  const shift = depthOf(leading(first[1]), fileUnit).depth - depthOf(leading(first[0]), writtenUnit).depth;
  const fits = pairs.every(([written, found]) => {
    const w = depthOf(leading(written), writtenUnit);
    const f = depthOf(leading(found), fileUnit);
    return f.depth - w.depth === shift && f.rest === w.rest;
  });
  if (!fits) return undefined;
  return (indent) => {
    const { depth, rest } = depthOf(indent, writtenUnit);
    return fileUnit.repeat(Math.max(0, depth + shift)) + rest;
  };
}

/**
 * Re-indents `added` (lines the model wrote next to `pattern`) to where `pattern` was found as `found`
 * (same length). Returns them unchanged when the indentation already agrees or no consistent mapping
 * exists (then the model's text is used as written).
 */
export function reindent(
  pattern: readonly string[],
  found: readonly string[],
  added: readonly string[],
): { lines: string[]; changed: boolean } {
  const pairs: Array<readonly [string, string]> = [];
  pattern.forEach((written, i) => {
    const inFile = found[i];
    if (inFile !== undefined && !isBlank(written) && !isBlank(inFile)) pairs.push([written, inFile]);
  });
  if (pairs.every(([written, inFile]) => leading(written) === leading(inFile))) {
    return { lines: [...added], changed: false };
  }
  const map = byPrefix(pairs) ?? byUnit(pairs, [...pattern, ...added]);
  if (!map) return { lines: [...added], changed: false };
  const lines = added.map((line) => (isBlank(line) ? line : map(leading(line)) + line.slice(leading(line).length)));
  return { lines, changed: lines.some((line, i) => line !== added[i]) };
}
