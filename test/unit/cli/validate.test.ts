import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { WS_FUNCTION_CALL } from '../support/wireFixture';

// `loopwire validate`, run as a user runs it: the built bin, real files and standard input.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const fixture = WS_FUNCTION_CALL;

function loopwire(args: string[], stdin = '') {
  return runProcess(process.execPath, [bin, ...args], stdin);
}

describe('cli: loopwire validate', () => {
  it('accepts the worked exchange of the protocol notes, frame by frame', async () => {
    const result = await loopwire(['validate', fixture]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /ws-function-call\.jsonl:1 {2}client-event response\.create\n/);
    assert.match(result.stdout, /ws-function-call\.jsonl:19 {2}server-event response\.completed\n/);
    assert.match(result.stdout, /^19 valid, 0 invalid$/m);
  });

  it('names the line and the field of a malformed frame, and exits 1', async () => {
    const frames = [
      '{"type":"response.create","model":"m","input":[{"type":"function_call_output","output":"x"}]}',
      '{"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"content_index":0}',
      '{"type":"response.create",',
      '{"type":"response.web_search_call.searching","sequence_number":2,"item_id":"ws","output_index":0}',
    ].join('\n');
    const result = await loopwire(['validate', '-'], frames);
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /✗ stdin:1 {2}client-event response\.create: Missing required parameter: 'input\[0\]\.call_id'\./,
    );
    assert.match(
      result.stdout,
      /✗ stdin:2 {2}server-event response\.output_text\.delta: Missing required parameter: 'delta'\./,
    );
    assert.match(result.stdout, /✗ stdin:3 {2}We could not parse the JSON/);
    assert.match(
      result.stdout,
      /✓ stdin:4 {2}server-event response\.web_search_call\.searching {2}\(type not modelled: passed over\)/,
    );
    assert.match(result.stdout, /^1 valid, 3 invalid$/m);
  });

  it('reads one JSON document or an array of frames, and --as names what they are', async () => {
    const request = JSON.stringify({ model: 'm', input: 'hi', store: false }, null, 2);
    const single = await loopwire(['validate'], request);
    assert.equal(single.code, 0, single.stdout);
    assert.match(single.stdout, /✓ stdin {2}request/);

    const items = JSON.stringify([
      { role: 'user', content: 'hi' },
      { type: 'function_call', name: 'x' },
    ]);
    const forced = await loopwire(['validate', '--as', 'item', '-'], items);
    assert.equal(forced.code, 1);
    assert.match(forced.stdout, /✓ stdin\[0\] {2}item/);
    assert.match(forced.stdout, /✗ stdin\[1\] {2}item function_call: Missing required parameter: 'call_id'\./);
  });

  it('explains itself with --help, and through `loopwire help validate`', async () => {
    for (const args of [
      ['validate', '--help'],
      ['help', 'validate'],
    ]) {
      const result = await loopwire(args);
      assert.equal(result.code, 0);
      assert.match(result.stdout, /^usage: loopwire validate /);
    }
  });

  it('exits 2 on bad usage: an unknown --as, a missing file, an unknown flag', async () => {
    for (const args of [
      ['validate', '--as', 'nonsense'],
      ['validate', '/no/such/file.jsonl'],
      ['validate', '--strict'],
    ]) {
      const result = await loopwire(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^loopwire validate: /);
    }
  });
});
