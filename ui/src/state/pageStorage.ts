// The page's own storage (localStorage), or null where the web view has it disabled or
// there is no window (tests in Node): callers then work without remembering.
export function pageStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}
