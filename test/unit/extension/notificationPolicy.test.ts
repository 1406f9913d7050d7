import * as assert from 'node:assert/strict';
import type { TaskEnd, WaitingCall } from '../../../src/extension/chat/chatActivity';
import {
  type NotificationSetting,
  NotificationPolicy,
  type Whereabouts,
  notificationSetting,
} from '../../../src/extension/notifications/notificationPolicy';

// When the chat's moments become a notification (issue 38, item 5): a call waiting for approval, a task
// finished, a task stopped — each once, only for a user looking elsewhere (the panel hidden or the window in
// the background), as `loopwire.notifications` says; and the badge's count of calls waiting.

const hidden = (setting: NotificationSetting = 'all'): Whereabouts => ({
  setting,
  panelVisible: false,
  windowFocused: true,
});
const inFront: Whereabouts = { setting: 'all', panelVisible: true, windowFocused: true };
const backgrounded: Whereabouts = { setting: 'all', panelVisible: true, windowFocused: false };

const call = (callId: string, action = `Run command \`echo ${callId}\``): WaitingCall => ({ callId, action });
const end = (status: TaskEnd['status'], more = false): TaskEnd => ({
  status,
  reason: status === 'completed' ? '' : 'The endpoint refused the API key.',
  prompt: 'run: echo hi',
  more,
});

describe('notifications: when the chat needs the user', () => {
  it('a call waiting for approval while the panel is hidden: one notification naming its action and call', () => {
    const policy = new NotificationPolicy();
    assert.deepEqual(policy.waiting([call('c1', 'Run command `echo hi`')], hidden()), {
      kind: 'approval',
      severity: 'info',
      message: 'Loopwire is waiting for your approval: Run command echo hi.',
      callId: 'c1',
    });
  });

  it('a task finished, or stopped, while the panel is hidden: one notification each', () => {
    const policy = new NotificationPolicy();
    assert.deepEqual(policy.ended(end('completed'), hidden()), {
      kind: 'finished',
      severity: 'info',
      message: 'Loopwire finished “run: echo hi”.',
    });
    assert.deepEqual(policy.ended(end('failed'), hidden()), {
      kind: 'stopped',
      severity: 'warning',
      message: 'Loopwire stopped: The endpoint refused the API key.',
    });
    assert.equal(policy.ended(end('stopped'), hidden())?.kind, 'stopped', 'a limit reached stops it too');
    const retried = policy.ended({ ...end('completed'), prompt: undefined }, hidden());
    assert.equal(retried?.message, 'Loopwire finished the task.', 'a Retry has no prompt of its own');
  });

  it('the window in the background counts as away, even with the panel on screen; in front, nothing', () => {
    assert.equal(new NotificationPolicy().waiting([call('c1')], backgrounded)?.kind, 'approval');
    assert.equal(new NotificationPolicy().ended(end('completed'), backgrounded)?.kind, 'finished');
    assert.equal(new NotificationPolicy().waiting([call('c1')], inFront), undefined);
    assert.equal(new NotificationPolicy().ended(end('completed'), inFront), undefined);
    assert.equal(new NotificationPolicy().ended(end('failed'), inFront), undefined);
  });

  it('the setting: all says everything, approvals only approvals, off nothing', () => {
    const says = (setting: NotificationSetting) => {
      const policy = new NotificationPolicy();
      const kinds = [
        policy.waiting([call('c1')], hidden(setting)),
        policy.waiting([], hidden(setting)),
        policy.ended(end('completed'), hidden(setting)),
        policy.ended(end('failed'), hidden(setting)),
      ];
      return kinds.map((notice) => notice?.kind ?? '-');
    };
    assert.deepEqual(says('all'), ['approval', '-', 'finished', 'stopped']);
    assert.deepEqual(says('approvals'), ['approval', '-', '-', '-']);
    assert.deepEqual(says('off'), ['-', '-', '-', '-']);
    assert.equal(notificationSetting('approvals'), 'approvals');
    assert.equal(notificationSetting('loud'), 'all', 'anything else is the default');
    assert.equal(notificationSetting(undefined), 'all');
  });

  it('never a stream for one task: calls that wait together raise one notification, until none waits', () => {
    const policy = new NotificationPolicy();
    assert.equal(policy.waiting([call('c1')], hidden())?.callId, 'c1');
    assert.equal(policy.waiting([call('c1'), call('c2')], hidden()), undefined, 'a second call waiting beside it');
    assert.equal(policy.waiting([call('c2')], hidden()), undefined, 'one answered, the other still waits');
    assert.equal(policy.waiting([call('c2'), call('c3')], hidden()), undefined);
    assert.equal(policy.waiting([], hidden()), undefined, 'all answered: nothing to say');
    // Answered (the user came to the panel), then the next call of the task waits while they are away again.
    assert.equal(policy.waiting([call('c4')], hidden())?.callId, 'c4');
  });

  it('the same calls reported again are not news; a call that began waiting while the panel showed is not told later', () => {
    const policy = new NotificationPolicy();
    assert.equal(policy.waiting([call('c1')], inFront), undefined);
    assert.equal(policy.waiting([call('c1')], hidden()), undefined, 'nothing new waits');
    assert.equal(policy.waiting([call('c1'), call('c2')], hidden())?.callId, 'c2', 'a new one, unannounced yet');
  });

  it('a task’s end is told once, replacing its approval’s; Stop and a task with a prompt queued after it are not told', () => {
    const policy = new NotificationPolicy();
    assert.equal(policy.waiting([call('c1')], hidden())?.kind, 'approval');
    assert.equal(policy.waiting([], hidden()), undefined);
    assert.equal(policy.ended(end('completed'), hidden())?.kind, 'finished', 'the end after the approval');
    assert.equal(policy.ended(end('cancelled'), hidden()), undefined, 'Stop is the user’s own click');
    assert.equal(policy.ended(end('completed', true), hidden()), undefined, 'the queue goes on');
    assert.equal(policy.ended(end('failed', true), hidden())?.kind, 'stopped', 'a stop is told even so');
    // After a task's end the next approval is news again, even where its calls were not reported answered.
    const next = new NotificationPolicy();
    assert.equal(next.waiting([call('c1')], hidden())?.callId, 'c1');
    next.ended(end('completed'), hidden());
    assert.equal(next.waiting([call('c1'), call('c9')], hidden())?.callId, 'c9');
  });

  it('a long prompt or reason is cut to one line', () => {
    const policy = new NotificationPolicy();
    const long = `fix ${'the cart '.repeat(30)}\nand more`;
    const message = policy.ended({ ...end('completed'), prompt: long }, hidden())?.message ?? '';
    assert.equal(message.length, 'Loopwire finished “”.'.length + 80, message);
    assert.match(message, /^Loopwire finished “fix the cart the cart .*…”\.$/);
    assert.equal(
      policy.ended({ ...end('failed'), reason: '' }, hidden())?.message,
      'Loopwire stopped: the task failed.',
    );
  });

  it('the badge counts the calls waiting, and goes when none does', () => {
    const policy = new NotificationPolicy();
    assert.equal(policy.badge(), undefined);
    policy.waiting([call('c1')], inFront);
    assert.deepEqual(policy.badge(), { value: 1, tooltip: 'A call waits for your approval' });
    policy.waiting([call('c1'), call('c2')], hidden('off'));
    assert.deepEqual(policy.badge(), { value: 2, tooltip: '2 calls wait for your approval' });
    policy.waiting([], hidden());
    assert.equal(policy.badge(), undefined);
  });
  it('several chats open (issue 49): a hidden chat’s moments are told with the panel in front, naming the chat', () => {
    const policy = new NotificationPolicy();
    const chat = { id: 'chat-2', title: 'fix the cart', hidden: true };
    assert.deepEqual(policy.waiting([{ ...call('c1', 'Run command `npm test`'), chat }], inFront), {
      kind: 'approval',
      severity: 'info',
      message: 'Loopwire is waiting for your approval in “fix the cart”: Run command npm test.',
      callId: 'c1',
      chatId: 'chat-2',
    });
    assert.deepEqual(policy.ended({ ...end('failed'), chat }, inFront), {
      kind: 'stopped',
      severity: 'warning',
      message: 'Loopwire stopped in “fix the cart”: The endpoint refused the API key.',
      chatId: 'chat-2',
    });
    assert.equal(policy.ended({ ...end('completed'), chat }, inFront)?.chatId, 'chat-2');
    // The chat the panel shows is not hidden: in front, nothing is said.
    assert.equal(policy.ended({ ...end('completed'), chat: { ...chat, hidden: false } }, inFront), undefined);
  });
});
