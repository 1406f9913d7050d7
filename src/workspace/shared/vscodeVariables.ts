import * as os from 'node:os';
import * as path from 'node:path';

// VS Code's `${…}` variables in the files Loopwire reads as VS Code does (.vscode/tasks.json, .vscode/mcp.json):
// one expansion for both, so that a variable means the same in each.

export interface VariableValues {
  /** What `${workspaceFolder}` (and its old name `${workspaceRoot}`) names. */
  workspaceFolder: string;
  /** What `${cwd}` names, where the file has one (tasks: where the task starts). */
  cwd?: string;
  /** Where `${env:NAME}` reads (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

/**
 * `text` with the variables of `values` expanded. A variable it does not know goes to `unknown` (given
 * `${name}` whole), which keeps it, or throws to refuse the text.
 */
export function expandVariables(text: string, values: VariableValues, unknown: (whole: string) => string): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => valueOf(name, values) ?? unknown(whole));
}

function valueOf(name: string, values: VariableValues): string | undefined {
  if (name === 'workspaceFolder' || name === 'workspaceRoot') return values.workspaceFolder;
  if (name === 'workspaceFolderBasename') return path.basename(values.workspaceFolder);
  if (name === 'cwd') return values.cwd;
  if (name === 'userHome') return os.homedir();
  if (name === 'pathSeparator' || name === '/') return path.sep;
  if (name.startsWith('env:')) return (values.env ?? process.env)[name.slice(4)] ?? '';
  return undefined;
}
