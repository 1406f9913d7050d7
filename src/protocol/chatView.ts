export { ApprovalChoice, ComposerChoices } from './composerChoices';
export * from './chatEntries';
export * from './handoffs';
export * from './hostMessages';
export * from './viewMessages';

// The chat panel's messages, both directions: the extension host keeps the conversation and sends the
// webview what to show; the webview sends back what the user did. Each side validates what it receives.
// By direction: the entries (chatEntries.ts), host → page (hostMessages.ts), page → host (viewMessages.ts).
