// Excerpts of the real file for error messages: numbered lines a model can copy from, and the closest text
// to lines that were not found.
import { normaliseLine } from './matchCascade';

const MAX_EXCERPT_LINES = 24;
const MAX_LINE_CHARS = 240;

/** Lines `first`..`last` (1-based, inclusive, clamped) of `lines`, each as `  12 | text`. */
export function numbered(lines: readonly string[], first: number, last: number): string {
  const from = Math.max(1, first);
  const to = Math.min(lines.length, last, from + MAX_EXCERPT_LINES - 1);
  const width = String(to).length;
  const out: string[] = [];
  for (let no = from; no <= to; no++) {
    const text = lines[no - 1] ?? '';
    const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
    out.push(`  ${String(no).padStart(width)} | ${shown}`);
  }
  return out.join('\n');
}

/** The lines a model wrote, indented, for quoting back in a message. */
export function quoted(lines: readonly string[]): string {
  const shown = lines.slice(0, MAX_EXCERPT_LINES).map((line) => `    ${line}`);
  if (lines.length > MAX_EXCERPT_LINES) shown.push(`    … (${lines.length - MAX_EXCERPT_LINES} more lines)`);
  return shown.join('\n');
}

/** `lines 3, 9 and 14`, from 0-based indices. */
export function lineList(indices: readonly number[], total = indices.length): string {
  const numbers = indices.map((i) => String(i + 1));
  const more = total > indices.length ? ` and ${total - indices.length} more` : '';
  if (numbers.length === 1) return `line ${numbers[0]}${more}`;
  if (more) return `lines ${numbers.join(', ')}${more}`;
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice similarity of two lines' character pairs, 0..1, after whitespace and punctuation are normalised. */
function similarity(a: string, b: Map<string, number>, bSize: number): number {
  const pairs = bigrams(a);
  let aSize = 0;
  let shared = 0;
  for (const [pair, count] of pairs) {
    aSize += count;
    shared += Math.min(count, b.get(pair) ?? 0);
  }
  return aSize + bSize === 0 ? 0 : (2 * shared) / (aSize + bSize);
}

/**
 * 0-based index where a window of `pattern.length` lines best resembles `pattern`, or undefined. Of equally
 * good windows, the first at or after `from` (where the text was sought) wins.
 */
export function closestStart(lines: readonly string[], pattern: readonly string[], from = 0): number | undefined {
  if (lines.length === 0 || pattern.length === 0) return undefined;
  const norm = lines.map((line) => normaliseLine(line, 'unicode'));
  const wanted = pattern.map((line) => normaliseLine(line, 'unicode'));
  let best: number | undefined;
  let bestScore = 0;
  const lastStart = Math.max(0, lines.length - wanted.length);
  for (let start = 0; start <= lastStart; start++) {
    let score = 0;
    for (let i = 0; i < wanted.length; i++) if (wanted[i] !== '' && norm[start + i] === wanted[i]) score++;
    if (score > bestScore || (score === bestScore && score > 0 && best !== undefined && best < from)) {
      bestScore = score;
      best = start;
    }
  }
  if (best !== undefined) return best;
  // No line is equal: anchor on the line most like the first non-blank one the model wrote.
  const offset = wanted.findIndex((line) => line !== '');
  const probe = wanted[offset];
  if (probe === undefined) return undefined;
  const probePairs = bigrams(probe);
  const probeSize = Math.max(0, probe.length - 1);
  let bestSimilarity = 0.4;
  for (let i = 0; i < norm.length; i++) {
    const score = similarity(norm[i] as string, probePairs, probeSize);
    if (score > bestSimilarity || (score === bestSimilarity && best !== undefined && best < from)) {
      bestSimilarity = score;
      best = Math.max(0, i - offset);
    }
  }
  return best;
}

/**
 * "Closest text in PATH (lines a-b):" and the numbered lines around where `pattern` best fits, or a short
 * note and the lines from `from` when nothing resembles it.
 */
export function closestText(path: string, lines: readonly string[], pattern: readonly string[], from = 0): string {
  const start = closestStart(lines, pattern, from);
  if (start === undefined) {
    if (lines.length === 0) return `${path} is empty.`;
    return `No line of ${path} resembles them. ${path} from line ${from + 1}:\n${numbered(lines, from + 1, from + 8)}`;
  }
  const first = start + 1;
  const last = Math.min(lines.length, start + Math.max(1, pattern.length));
  const range = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return `Closest text in ${path} (${range}):\n${numbered(lines, first - 1, last + 1)}`;
}
