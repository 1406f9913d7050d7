// Where Loopwire's settings are read from in a multi-root workspace (package.json's `scope` on each one; a
// unit test holds the manifest to these lists). Free of `vscode`, for that test.

/**
 * The `resource` settings: read for the folder a task or file belongs to (settings.ts' `taskFolder`, the
 * inline edit's file, the folder a command runs in), so two folders of one window may differ.
 */
export const FOLDER_SETTINGS = ['commandRules', 'saveAfterEdit', 'maxTurns'] as const;

/**
 * Settings that send the user's code and key somewhere, or load code: the window's (`window` scope), never one
 * folder's, and restricted in an untrusted workspace. A workspace's endpoint still waits for the user's yes
 * (endpointAccess.ts); a folder's is not read at all.
 */
export const WINDOW_ONLY_SETTINGS = ['endpoint', 'headers', 'scenarioFiles'] as const;

/** The scopes a Loopwire setting may have (VS Code's `ConfigurationScope` names, as the manifest spells them). */
export const SCOPES = ['application', 'machine', 'machine-overridable', 'window', 'resource'] as const;
