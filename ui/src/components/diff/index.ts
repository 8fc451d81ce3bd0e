export { DiffStats, DiffView, type DiffComment, type DiffSide, type DiffViewProps, type HunkState } from "./DiffView";
export { parseDiff, parseHunkHeader, type ParsedDiff } from "./parse";
export { useDiffViewMode, type DiffViewMode } from "./viewMode";
