import type { ChatNamed, TaskEnd, WaitingCall } from '../chat/chatActivity';
import { t } from '@vscode/l10n';

// Which of the chat's moments become a VS Code notification (`loopwire.notifications`), and the count the
// Loopwire view's badge shows. Decided here, apart from VS Code (taskNotifications.ts shows what this says),
// so that every rule is tested in plain mocha. A notification is for a user who is looking elsewhere — the
// panel hidden or the window unfocused — and says each moment once: a task that asks for several approvals
// while the user is away raises one notification, and the badge counts the rest.

export const NOTIFICATION_SETTINGS = ['all', 'approvals', 'off'] as const;
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

/** Where the user is when a moment comes, and what they asked to be told. */
export interface Whereabouts {
  setting: NotificationSetting;
  /** The chat panel is on screen. */
  panelVisible: boolean;
  windowFocused: boolean;
}

export interface Notice {
  kind: 'approval' | 'finished' | 'stopped';
  severity: 'info' | 'warning';
  message: string;
  /** The entry concerned, where it is a call waiting for approval. */
  callId?: string;
  /** The chat concerned, where several are open: Show shows it. */
  chatId?: string;
}

/** The view's badge: how many calls wait for Allow / Skip. */
export interface Badge {
  value: number;
  tooltip: string;
}

/** The setting as read, anything else being the default. */
export function notificationSetting(value: unknown): NotificationSetting {
  return NOTIFICATION_SETTINGS.find((setting) => setting === value) ?? 'all';
}

/** At most this much of a prompt or a reason goes in a notification's one line. */
const CLIP = 80;
const clip = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > CLIP ? `${line.slice(0, CLIP - 1)}…` : line;
};

export class NotificationPolicy {
  private calls: readonly WaitingCall[] = [];
  /**
   * This batch of waiting calls (from the first that waited until none waits) was notified already: the
   * rest of it only counts on the badge, whether or not the user closed that notification.
   */
  private batchNotified = false;

  /** The calls waiting now; the notification to show, when this is the first of a batch the user is away for. */
  waiting(calls: readonly WaitingCall[], where: Whereabouts): Notice | undefined {
    const fresh = calls.find((call) => !this.calls.some((before) => before.callId === call.callId));
    this.calls = [...calls];
    if (calls.length === 0) this.batchNotified = false;
    if (!fresh || this.batchNotified || where.setting === 'off' || !away(where, fresh.chat)) return undefined;
    this.batchNotified = true;
    // A notification shows no markdown: the action's code marks would show as backticks.
    const action = fresh.action.replace(/`/g, '');
    return {
      kind: 'approval',
      severity: 'info',
      message: fresh.chat
        ? t('Loopwire is waiting for your approval in “{0}”: {1}.', clip(fresh.chat.title), action)
        : t('Loopwire is waiting for your approval: {0}.', action),
      callId: fresh.callId,
      ...(fresh.chat ? { chatId: fresh.chat.id } : {}),
    };
  }

  /** A task ended; the notification to show, if any. Any approval of it is over (answered or declined). */
  ended(end: TaskEnd, where: Whereabouts): Notice | undefined {
    this.batchNotified = false;
    // Stop was the user's own click; a completed task followed by a queued prompt is not done for the user.
    if (end.status === 'cancelled' || (end.status === 'completed' && end.more)) return undefined;
    if (where.setting !== 'all' || !away(where, end.chat)) return undefined;
    const chatId = end.chat ? { chatId: end.chat.id } : {};
    if (end.status === 'completed') {
      const what = end.prompt === undefined ? t('the task') : `“${clip(end.prompt)}”`;
      return { kind: 'finished', severity: 'info', message: t('Loopwire finished {0}.', what), ...chatId };
    }
    const why = (clip(end.reason) || (end.status === 'failed' ? t('the task failed') : t('the task stopped'))).replace(
      /\.$/,
      '',
    );
    const message = end.chat
      ? t('Loopwire stopped in “{0}”: {1}.', clip(end.chat.title), why)
      : t('Loopwire stopped: {0}.', why);
    return { kind: 'stopped', severity: 'warning', message, ...chatId };
  }

  /** The badge for the calls waiting now; none while none waits. */
  badge(): Badge | undefined {
    const count = this.calls.length;
    if (count === 0) return undefined;
    return {
      value: count,
      tooltip: count === 1 ? t('A call waits for your approval') : t('{0} calls wait for your approval', count),
    };
  }
}

/** The user is looking elsewhere: the panel is hidden or shows another chat, or the window is not in front. */
const away = (where: Whereabouts, chat?: ChatNamed): boolean =>
  !where.panelVisible || !where.windowFocused || chat?.hidden === true;
