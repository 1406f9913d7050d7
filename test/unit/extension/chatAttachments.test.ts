import * as assert from 'node:assert/strict';
import { Transcript } from '../../../src/agent';
import type { ChatContext } from '../../../src/extension/chat/composer/contextPort';
import { fuzzyPaths } from '../../../src/extension/chat/composer/fuzzyPaths';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import type { Attachment } from '../../../src/protocol/attachments';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// The composer's attachments on the host's side, against the real server over a real socket: a prompt's
// chips are read when its task starts and go as labelled parts after its text; the entry shows them, also
// after a reload and from the transcript alone; the picker's answers and Add to Chat's chips reach the page.

const scenario: ScenarioFile = {
  scenarios: [{ name: 'any', match: '.*', steps: [{ output: [{ type: 'message', text: 'Read them.' }] }] }],
};

/** A window side with set answers: the `@` picker's search over `files`, a selection, a terminal command. */
function fakeContext(files: string[]): ChatContext {
  return {
    find: (query) => Promise.resolve(fuzzyPaths(files, query)),
    selection: () => ({ kind: 'file', path: 'src/cart.js', lines: { start: 2, end: 3 } }),
    fromUris: (uris) =>
      Promise.resolve({
        attachments: uris
          .filter((uri) => uri.startsWith('file:///ws/'))
          .map((uri) => ({
            kind: 'file' as const,
            path: uri.slice('file:///ws/'.length),
          })),
        refused: uris.filter((uri) => !uri.startsWith('file:///ws/')),
      }),
    sources: () => ({
      terminal: () => Promise.resolve({ command: 'npm test', output: '1 failing\n', exitCode: 1 }),
      changes: () => Promise.resolve(undefined),
    }),
  };
}

describe('chat panel host: attachments', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'src/cart.js': 'one\ntwo\nthree\nfour\n' }, { logBodies: true });
  const ui = useChatBench(bench);

  it('sends a prompt’s chips as labelled parts after its text, read when its task starts; the entry keeps them', async () => {
    ui.chatContext = fakeContext([]);
    const chat = ui.controller();
    const attachments: Attachment[] = [
      { kind: 'file', path: 'src/cart.js', lines: { start: 2, end: 3 } },
      { kind: 'terminal' },
      { kind: 'changes' },
    ];
    await chat.receive({ type: 'send', text: 'Why?', attachments });
    await chat.ask('And now?'); // waits for the first task too: one conversation at a time
    const user = chat.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(user, { kind: 'user', id: user?.id, text: 'Why?', attachments });
    const bodies = requestsOf(await bench.wire()).map((line) => (line as { body?: { input?: unknown[] } }).body);
    const first = bodies.find((body) => body?.input?.some((item) => (item as { role?: string }).role === 'user'));
    const message = first?.input?.find((item) => (item as { role?: string }).role === 'user') as {
      content: { type: string; text: string }[];
    };
    assert.deepEqual(message.content, [
      { type: 'input_text', text: 'Why?' },
      {
        type: 'input_text',
        text: '<attachment kind="file" path="src/cart.js" lines="2-3">\ntwo\nthree\n</attachment>',
      },
      { type: 'input_text', text: '<attachment kind="terminal">\n$ npm test (exit code 1)\n1 failing\n</attachment>' },
      {
        type: 'input_text',
        text: '<attachment kind="changes">\nThe workspace is not in a git repository: there are no changes to show.\n</attachment>',
      },
    ]);

    // Reopened from the transcript alone (no snapshot), the prompt shows its text and its chips again.
    const file = chat.transcriptFile;
    assert.ok(file);
    const reopened = transcriptEntries(Transcript.load(file).items).filter((entry) => entry.kind === 'user');
    assert.deepEqual(
      reopened.map((entry) => (entry.kind === 'user' ? [entry.text, entry.attachments] : [])),
      [
        ['Why?', attachments],
        ['And now?', undefined],
      ],
    );

    // After a reload (the snapshot), too.
    const again = ui.controller();
    await again.receive({ type: 'ready' });
    const restored = again.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(restored?.kind === 'user' ? restored.attachments : undefined, attachments);
  });

  it('Edit and resend keeps the edited prompt’s chips, read again as the files are now', async () => {
    ui.chatContext = fakeContext([]);
    const chat = ui.controller();
    const attachments: Attachment[] = [{ kind: 'file', path: 'src/cart.js', lines: { start: 1, end: 1 } }];
    await chat.ask('First take.', attachments);
    const first = chat.model.all.find((entry) => entry.kind === 'user');
    await chat.receive({ type: 'resend', id: first?.id ?? '', text: 'Second take.' });
    await eventually(() => chat.model.all.some((entry) => entry.kind === 'assistant') && !chat.busy, {
      message: 'the resent prompt answered',
    });
    const resent = chat.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(resent?.kind === 'user' ? [resent.text, resent.attachments] : [], ['Second take.', attachments]);
  });

  it('answers the picker, turns @selection and drops into chips, and keeps Add to Chat’s until a page is there', async () => {
    ui.chatContext = fakeContext(['src/cart.js', 'src/tax.js', 'test/cart.test.js', 'README.md']);
    const chat = ui.controller();
    // No page yet, then a hidden view's (its page is gone: nothing is delivered).
    chat.attach(undefined);
    chat.attachments.add([{ kind: 'folder', path: 'src' }]);
    chat.attach(() => false);
    chat.attachments.add([{ kind: 'file', path: 'README.md' }]);
    chat.attach((message) => {
      ui.sent.push(message);
    });
    await chat.receive({ type: 'ready' });
    await chat.receive({ type: 'findContext', query: 'cart' });
    await chat.receive({ type: 'attachSelection' });
    await chat.receive({ type: 'attachUris', uris: ['file:///ws/README.md', 'file:///elsewhere/x.txt'] });
    const sent = ui.sent.filter((message) => message.type === 'attach' || message.type === 'contextMatches');
    assert.deepEqual(sent, [
      {
        type: 'attach',
        attachments: [
          { kind: 'folder', path: 'src' },
          { kind: 'file', path: 'README.md' },
        ],
      },
      {
        type: 'contextMatches',
        query: 'cart',
        matches: [
          { kind: 'file', path: 'src/cart.js' },
          { kind: 'file', path: 'test/cart.test.js' },
        ],
      },
      { type: 'attach', attachments: [{ kind: 'file', path: 'src/cart.js', lines: { start: 2, end: 3 } }] },
      { type: 'attach', attachments: [{ kind: 'file', path: 'README.md' }] },
    ]);
    const notice = chat.model.all.find((entry) => entry.kind === 'notice');
    assert.equal(
      notice?.kind === 'notice' ? notice.text : '',
      "Not attached (only the workspace's files can be): file:///elsewhere/x.txt.",
    );
  });
});

describe('the @ picker’s ranking', () => {
  const files = ['src/cart.js', 'src/cartesian/plot.js', 'test/cart.test.js', 'docs/care.md', 'src/lib/cat.ts'];

  it('puts names that hold the query first (shorter first), then paths whose characters come in order', () => {
    assert.deepEqual(fuzzyPaths(files, 'cart'), [
      { kind: 'file', path: 'src/cart.js' },
      { kind: 'folder', path: 'src/cartesian' },
      { kind: 'file', path: 'test/cart.test.js' },
      { kind: 'file', path: 'src/cartesian/plot.js' },
    ]);
    // Characters in order across folders: `slc` is src/lib/cat.ts's start of each segment.
    assert.deepEqual(fuzzyPaths(files, 'slc')[0], { kind: 'file', path: 'src/lib/cat.ts' });
    assert.deepEqual(fuzzyPaths(files, 'zzz'), []);
  });

  it('lists the first files for a bare @, and at most the limit', () => {
    assert.deepEqual(fuzzyPaths(files, '', 2), [
      { kind: 'file', path: 'src/cart.js' },
      { kind: 'file', path: 'src/cartesian/plot.js' },
    ]);
  });
});
