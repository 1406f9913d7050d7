import type { TaskEnd, WaitingCall } from '../chat/chatActivity';
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
    if (!fresh || this.batchNotified || where.setting === 'off' || !away(where)) return undefined;
    this.batchNotified = true;
    return {
      kind: 'approval',
      severity: 'info',
      // A notification shows no markdown: the action's code marks would show as backticks.
      message: t('Loopwire is waiting for your approval: {0}.', fresh.action.replace(/`/g, '')),
      callId: fresh.callId,
    };
  }

  /** A task ended; the notification to show, if any. Any approval of it is over (answered or declined). */
  ended(end: TaskEnd, where: Whereabouts): Notice | undefined {
    this.batchNotified = false;
    // Stop was the user's own click; a completed task followed by a queued prompt is not done for the user.
    if (end.status === 'cancelled' || (end.status === 'completed' && end.more)) return undefined;
    if (where.setting !== 'all' || !away(where)) return undefined;
    if (end.status === 'completed') {
      const what = end.prompt === undefined ? t('the task') : `“${clip(end.prompt)}”`;
      return { kind: 'finished', severity: 'info', message: t('Loopwire finished {0}.', what) };
    }
    const why = clip(end.reason) || (end.status === 'failed' ? t('the task failed') : t('the task stopped'));
    return { kind: 'stopped', severity: 'warning', message: t('Loopwire stopped: {0}.', why.replace(/\.$/, '')) };
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

/** The user is looking elsewhere: the panel is hidden, or the window is not the one in front. */
const away = (where: Whereabouts): boolean => !where.panelVisible || !where.windowFocused;
