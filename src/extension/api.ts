/**
 * What `activate()` returns: the automation surface that tests and other extensions use instead of
 * clicking. It grows with `tools` and `agent` (shared contract, see the VS Code adapter issue); existing
 * members never change shape.
 */
export interface LoopwireApi {
  /** The extension's version, from its manifest. */
  version: string;
}
