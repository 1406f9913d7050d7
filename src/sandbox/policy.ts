// What a command may touch: the sandbox policies, with Codex's names (GPT models are trained on them), and
// the folders a policy lets a command write. Plain data: the mechanism that enforces them is bwrapArgs.ts
// (Linux) or seatbeltProfile.ts (macOS), chosen by sandboxSupport.ts.

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;

/**
 * `read-only`: nothing writable but a private temporary folder; `workspace-write`: the workspace folders and
 * a private temporary folder writable, their protected folders (PROTECTED_FOLDERS) excepted; `danger-full-access`:
 * no sandbox at all.
 */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value);
}

export interface SandboxPolicy {
  mode: SandboxMode;
  /** Whether a confined command may reach the network (loopback included). Ignored in danger-full-access. */
  network: boolean;
}

/** A policy applied to one command: the policy and the absolute folders it may write (workspace-write). */
export interface Confinement {
  policy: SandboxPolicy;
  /** The workspace folders (absolute). Written only in workspace-write; read in every mode. */
  roots: readonly string[];
  /**
   * Further absolute paths no command may read (the extension's own storage, where its transcripts are), on
   * top of the credential stores and Loopwire's data that are always hidden (src/sandbox/hiddenPaths.ts).
   */
  hidden?: readonly string[];
  /**
   * Further absolute folders written in workspace-write as they are, with no protected folder kept inside
   * them (an MCP server's own cache, src/mcp/mcpSandbox.ts). Never hidden paths: a hidden path over one of
   * them stays hidden. Those that do not exist are left out.
   */
  writable?: readonly string[];
  /**
   * Further absolute folders read as they are, never written, where the private temporary folder would hide
   * them: the files of a program the user chose to run that lie in the host's /tmp (an MCP server's script,
   * src/mcp/mcpSandbox.ts). A hidden path inside one stays hidden. Those that do not exist are left out.
   */
  readable?: readonly string[];
  /**
   * Further absolute paths inside the writable folders kept read only: a git worktree's own git folder is
   * written (its index, its HEAD), but its `commondir`, `gitdir` and `config.worktree` say which repository's
   * config and hooks git reads there, so a command rewriting them would have the user's next git run its
   * program (src/agent/worktrees/worktreeSandbox.ts). Those missing, or links, are left out: the caller makes
   * each before the run.
   */
  keptReadOnly?: readonly string[];
}

/**
 * Inside a writable root, what stays read-only in workspace-write: what the agent's (and the editor's, and
 * other agents') own behaviour is read from, so that a command cannot rewrite the rules it runs under.
 */
export const PROTECTED_FOLDERS = [
  '.git',
  '.vscode',
  '.loopwire',
  '.agents',
  '.claude',
  '.codex',
  '.github/hooks',
] as const;

/** The user's credential stores, relative to the home folder: hidden from every confined command. */
export const CREDENTIAL_STORES = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.netrc',
  '.config/gh',
  '.docker/config.json',
  '.npmrc',
  // Where git, package registries, clouds and password managers keep the user's tokens in plain text.
  '.git-credentials',
  '.config/git/credentials',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.config/hub',
  '.kube',
  '.config/gcloud',
  '.azure',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  // The display's key: with it, a command could type into the user's other windows.
  '.Xauthority',
] as const;
