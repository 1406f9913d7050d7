import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type ChatSnapshot, SnapshotWriter, loadSnapshot } from '../../../src/extension/chat/history/chatSnapshot';
import type { ChatEntry } from '../../../src/protocol/chatView';

// The snapshot writer: what it writes is the snapshot's JSON (entries serialised once, a streaming one each
// time), the newest text wins however the writes interleave, and a flush puts it on disk at once.

const snapshotOf = (sessionId: string, entries: ChatEntry[]): ChatSnapshot => ({
  version: 1,
  sessionId,
  running: true,
  entries,
  reviews: [],
  allowed: ['task'],
});

describe('chat snapshots: the writer', () => {
  let dir: string;
  const failures: unknown[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-snapshots-'));
    failures.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the snapshot as JSON would, a streaming entry as it is now, the newest save last', async () => {
    const writer = SnapshotWriter.of(dir, (error) => failures.push(error));
    const done: ChatEntry = { kind: 'user', id: 'user:1', text: 'a "quoted" prompt\n' };
    const streaming = { kind: 'assistant' as const, id: 'text:1', text: 'Hel', streaming: true };
    const saves = [writer.save(snapshotOf('s1', [done, streaming]))];
    streaming.text += 'lo';
    saves.push(writer.save(snapshotOf('s1', [done, streaming])));
    await Promise.all(saves);
    const { snapshot } = loadSnapshot(dir, 's1');
    assert.deepEqual(snapshot, snapshotOf('s1', [done, { ...streaming, text: 'Hello' }]));
    assert.deepEqual(failures, []);
  });

  it('flushes at once: the newest text of every chat is on disk, and no write in flight replaces it', async () => {
    const writer = SnapshotWriter.of(dir, (error) => failures.push(error));
    const entry = (n: number): ChatEntry => ({ kind: 'user', id: `user:${n}`, text: `prompt ${n}` });
    const inFlight = writer.save(snapshotOf('a', [entry(1)]));
    void writer.save(snapshotOf('b', [entry(2)]));
    void writer.save(snapshotOf('a', [entry(1), entry(3)]));
    writer.flush();
    assert.deepEqual(loadSnapshot(dir, 'a').snapshot?.entries, [entry(1), entry(3)]);
    assert.deepEqual(loadSnapshot(dir, 'b').snapshot?.entries, [entry(2)]);
    await inFlight;
    assert.deepEqual(loadSnapshot(dir, 'a').snapshot?.entries, [entry(1), entry(3)], 'still the newest');
    assert.deepEqual(
      fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
    assert.equal(
      SnapshotWriter.of(dir, () => undefined),
      writer,
      'one writer per folder',
    );
  });
});
