import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Transcript, forkTranscript } from '../../../src/agent';

// A transcript's notes: kept beside the conversation where they happened (after how many items), read back
// on load, never among the items the model is sent, and carried into a fork made after them.

describe('transcript: notes beside the conversation', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-notes-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const header = (id: string) => ({ id, createdAt: '2026-12-06T00:00:00.000Z', workspace: dir, model: 'gpt-5.5' });
  const user = (text: string) => ({ type: 'message' as const, role: 'user' as const, content: text });

  it('keeps a note after the items so far, reads it back, and sends none of it', () => {
    const file = path.join(dir, 'a.jsonl');
    const transcript = Transcript.create(header('a'), file);
    transcript.append(user('first'));
    transcript.addNote({ kind: 'inline', title: 'Fixed inline in src/cart.js:12' });
    transcript.append(user('second'));
    const loaded = Transcript.load(file);
    assert.deepEqual(loaded.items, [user('first'), user('second')]);
    assert.deepEqual(loaded.notes, [{ at: 1, note: { kind: 'inline', title: 'Fixed inline in src/cart.js:12' } }]);
  });

  it('a fork keeps the notes made before its point, not those after', () => {
    const transcript = Transcript.create(header('b'), path.join(dir, 'b.jsonl'));
    transcript.addNote({ n: 0 });
    transcript.append(user('first'));
    transcript.addNote({ n: 1 });
    transcript.append(user('second'));
    transcript.addNote({ n: 2 });
    const fork = forkTranscript(transcript, 1, 'c', path.join(dir, 'c.jsonl'));
    assert.deepEqual(
      Transcript.load(path.join(dir, 'c.jsonl')).notes.map((kept) => [kept.at, kept.note]),
      [
        [0, { n: 0 }],
        [1, { n: 1 }],
      ],
    );
    assert.equal(fork.items.length, 1);
  });
});
