// The wire shapes of Loopwire: one zod schema per shape, types inferred from them. Client, server,
// webview and tools all validate against these, so each shape is written exactly once.
export * from './attachments';
export * from './chatView';
export * from './clientEvents';
export * from './compaction';
export * from './contentParts';
export * from './contextItems';
export * from './edits';
export * from './errorCodes';
export * from './errors';
export * from './images';
export * from './items';
export * from './openUnion';
export * from './request';
export * from './response';
export * from './serverEvents';
export * from './steering';
export * from './streamEvent';
export * from './tools';
export * from './wireParse';
