// The edit engine's public surface: pure text in, plans and hunks out. No I/O, no other layer.
export { type ApplyOptions, applyPlan, invertPlan } from './applyPlan';
export {
  type EditPlan,
  type FileOp,
  type FilePlan,
  type FileSnapshot,
  type FileSnapshots,
  type MatchNote,
  deleteEntry,
  makePlan,
} from './editPlan';
export type { EditError, EditErrorCode } from './errors';
export { hashText } from './hash';
export type { Hunk } from './hunks';
export { LEVEL_LABELS, MATCH_LEVELS, type MatchLevel } from './matchCascade';
export { type PartialPatch, parsePartialPatch, parsePatch } from './patchParser';
export type { AddFileOp, ChunkLine, DeleteFileOp, ParsedPatch, PatchChunk, PatchOp, UpdateFileOp } from './patchTypes';
export { planPatch } from './planPatch';
export { planReplacements } from './planReplacements';
export { planWrite } from './planWrite';
export { type EditPreview, type FilePreview, previewEditFile, previewPatch } from './preview';
export { applyHunk, invertHunk, revertHunk } from './rebase';
export type { ReplacementEdit, ReplacementsInput } from './replacements';
export type { Result } from './result';
export { type ReadStamp, type ReadStamps, checkStale } from './staleGuard';
export { type Eol, type TextFormat, detectTextFormat } from './textFormat';
export { type DiffOptions, renderUnifiedDiff, summarizePlan } from './unifiedDiff';
export { type HunkSide, type HunkStanding, hunkStanding } from './hunkStanding';
export { carryChange, changeHunks, withHunks } from './textChange';
