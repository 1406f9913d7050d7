// The OS sandbox every command the agent starts runs in (docs/security.md): bubblewrap on Linux, Seatbelt on
// macOS, none on Windows. Plain Node; the workspace adapters wrap their spawns with `confineSpawn`.
export * from './policy';
export * from './sandboxSupport';
export * from './confineSpawn';
export * from './denialNote';
export * from './programFolders';
