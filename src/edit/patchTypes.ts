// The apply_patch format, parsed: what each `*** … File` section asks for, before any file is looked at.

/** One line of a chunk: unchanged context (`' '`), removed (`'-'`) or added (`'+'`). */
export interface ChunkLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** The patch line was empty (no leading space): context that may have been a stray blank line. */
  bare?: boolean;
}

/** One `@@` chunk of an `*** Update File` section. */
export interface PatchChunk {
  /** The `@@ …` lines, outermost first (`@@ class A` then `@@ def f`): each is sought before the lines. */
  contexts: string[];
  lines: ChunkLine[];
  /** Followed by `*** End of File`: the lines must be the file's last ones. */
  endOfFile: boolean;
  /** 1-based line of the patch where the chunk starts. */
  line: number;
}

/** `*** Add File: PATH` and its `+` lines. */
export interface AddFileOp {
  kind: 'add';
  path: string;
  lines: string[];
  line: number;
}

/** `*** Delete File: PATH`. */
export interface DeleteFileOp {
  kind: 'delete';
  path: string;
  line: number;
}

/** `*** Update File: PATH`, optionally `*** Move to: PATH`, and its chunks (none for a pure move). */
export interface UpdateFileOp {
  kind: 'update';
  path: string;
  moveTo?: string;
  chunks: PatchChunk[];
  line: number;
}

/** One file section of a patch. */
export type PatchOp = AddFileOp | DeleteFileOp | UpdateFileOp;

/** A whole patch, parsed. Every path appears in one section only. */
export interface ParsedPatch {
  ops: PatchOp[];
  /** Every path the patch reads or writes (move destinations included), in order: what to snapshot. */
  paths: string[];
}
