import './l10nSetup';

// What dist/runtime.js holds (esbuild.js): the window's runtime and the work of the commands that start it
// or need it started, so that extension.js, which every window loads at activation, keeps only what
// registers them. extension.ts requires it on first use; Node keeps it loaded after that.

export { WindowRuntime } from './windowRuntime';
export { taskNotifications } from './notifications/taskNotifications';
export { editInline, fixInline, reviewInline } from './inline/inlineActions';
export { fixFinding, reviewChanges } from './review/reviewChangesCommand';
export {
  applyWorktreeCommand,
  discardWorktreeCommand,
  newChatInWorktree,
  openWorktreeCommand,
} from './worktrees/worktreeActions';
