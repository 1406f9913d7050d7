import * as assert from 'node:assert/strict';
import { renderReport } from '../../bench/loop/htmlReport';
import { SAMPLE_RESULTS } from '../../bench/loop/sampleResults';

// The benchmark's report renders whatever a run produced — a full run, a quick one, nothing — as one
// self-contained page, with every mode in it and every text escaped.

describe('bench: the HTML report', () => {
  it('draws every chart and mode of a full run, self-contained', () => {
    const html = renderReport(SAMPLE_RESULTS);
    assert.match(html, /^<!doctype html>/i);
    assert.ok((html.match(/<svg/g) ?? []).length >= 3, 'the overhead, wall-time and bytes charts');
    for (const mode of ['http-full', 'http-chained', 'ws-full', 'ws-chained']) assert.ok(html.includes(mode), mode);
    assert.doesNotMatch(html, /<script|<link|https?:\/\//);
  });

  it('renders a quick run and an empty one without failing, escaping what it shows', () => {
    const quick = {
      ...SAMPLE_RESULTS,
      quick: true,
      runs: SAMPLE_RESULTS.runs.filter((r) => (r.mode === 'http-full' || r.mode === 'ws-chained') && r.tps === 1000),
      scaling: [],
    };
    assert.match(renderReport(quick), /ws-chained/);
    const empty = {
      ...SAMPLE_RESULTS,
      runs: [],
      scaling: [],
      goals: [],
      machine: { ...SAMPLE_RESULTS.machine, cpu_model: '<script>x</script>' },
    };
    const html = renderReport(empty);
    assert.ok(html.includes('&lt;script&gt;x&lt;/script&gt;'));
    assert.doesNotMatch(html, /<script>x/);
  });
});
