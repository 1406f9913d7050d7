// The Workspace port: the interface, its errors and the path and glob rules both adapters share. Adapters
// are imported from their own folders (node/, vscode/; multiRootWorkspace.ts, which joins several) by
// whoever chooses one: src/cli, src/extension. What the adapters share is in shared/, which is neither's.
export type * from './workspace';
export { WorkspaceError, type WorkspaceErrorCode, isWorkspaceError } from './workspaceError';
export { assertWritable, inProtectedFolder, isGitInternal, normalizeWorkspacePath } from './workspacePath';
export { anchoredGlob, globMatcher } from './glob';
export { MAX_MATCH_LINE, SEARCH_COUNT_LIMIT } from './searchLine';
