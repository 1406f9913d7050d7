// The streaming preview's cost: a 50 KB patch (and 50 KB of edit_file arguments) fed in deltas, with
// previewPatch / previewEditFile called after every delta, as a live diff would be.
// Run: npx tsx test/bench/editPreview.ts
import { parsePatch, planPatch, previewEditFile, previewPatch } from '../../src/edit';

/** A source file of `lines` distinct lines, like code. */
function source(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      i % 10 === 0 ? `function step${i}(input) {` : i % 10 === 9 ? '}' : `  const value${i} = input.field${i} + ${i};`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** An update of every 10th function of `text` plus one added file, until the patch reaches `size` chars. */
function bigPatch(text: string, size: number): string {
  const lines = text.split('\n');
  const parts = ['*** Begin Patch', '*** Update File: src/big.js'];
  for (let i = 0; i + 3 < lines.length && parts.join('\n').length < size / 2; i += 20) {
    parts.push(
      `@@ ${lines[i] ?? ''}`,
      ` ${lines[i + 1] ?? ''}`,
      `-${lines[i + 2] ?? ''}`,
      `+${(lines[i + 2] ?? '').replace('+', '-')}`,
      ` ${lines[i + 3] ?? ''}`,
    );
  }
  parts.push('*** Add File: src/added.js');
  let n = 0;
  while (parts.join('\n').length < size - 20)
    parts.push(`+export const generated${n} = ${n++} * 2; // a line of new code`);
  parts.push('*** End Patch');
  return `${parts.join('\n')}\n`;
}

function bigArgs(text: string, size: number): string {
  const lines = text.split('\n');
  const edits: Array<{ old_string: string; new_string: string }> = [];
  for (let i = 1; i + 2 < lines.length && JSON.stringify(edits).length < size; i += 10) {
    const old = `${lines[i] ?? ''}\n${lines[i + 1] ?? ''}`;
    edits.push({ old_string: old, new_string: old.replace(/\+ (\d+);/g, '* $1; // "doubled"') });
  }
  return JSON.stringify({ path: 'src/big.js', edits });
}

function measure(label: string, text: string, step: number, run: (prefix: string) => unknown): void {
  const times: number[] = [];
  for (let end = step; ; end += step) {
    const prefix = text.slice(0, Math.min(end, text.length));
    const start = performance.now();
    run(prefix);
    times.push(performance.now() - start);
    if (end >= text.length) break;
  }
  const total = times.reduce((a, b) => a + b, 0);
  const sorted = [...times].sort((a, b) => a - b);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  console.log(
    `${label.padEnd(16)} delta ${String(step).padStart(3)}  calls ${String(times.length).padStart(4)}  total ${total.toFixed(0).padStart(5)} ms  per call: mean ${(total / times.length).toFixed(2)} ms, p50 ${p(0.5).toFixed(2)}, p95 ${p(0.95).toFixed(2)}, max ${(sorted.at(-1) ?? 0).toFixed(2)}`,
  );
}

const file = source(2000);
const files = new Map([['src/big.js', { text: file }]]);
const patch = bigPatch(file, 50_000);
const args = bigArgs(file, 50_000);
const parsed = parsePatch(patch);
if (!parsed.ok || !planPatch(parsed.value, files).ok) throw new Error('the benchmark patch does not apply');
console.log(`file ${file.length} chars (2000 lines); patch ${patch.length} chars; edit_file args ${args.length} chars`);
for (const step of [64, 128, 256]) measure('previewPatch', patch, step, (prefix) => previewPatch(prefix, files));
for (const step of [64, 128, 256]) measure('previewEditFile', args, step, (prefix) => previewEditFile(prefix, files));
