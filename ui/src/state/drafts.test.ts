import { describe, expect, it } from "vitest";

import type { ImageInput } from "../gen/protocol";
import { DraftStore, draftKey, storedCopy } from "./drafts";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

const image = (size: number): ImageInput => ({ media_type: "image/png", data: "A".repeat(size) });

describe("drafts", () => {
  it("keys a session's draft by its id, and a new session's by its folder", () => {
    expect(draftKey("s1", "/repo")).toBe("session:s1");
    expect(draftKey(null, "/repo")).toBe("folder:/repo");
    expect(draftKey(null, null)).toBeNull();
  });

  it("keeps one draft per key, across a restart, and drops an emptied one", () => {
    const storage = memoryStorage();
    const store = new DraftStore(storage);
    const pic = image(10);
    store.set("session:a", { text: "half a thought", images: [pic], pastes: [] });
    store.set("folder:/repo", { text: "new one", images: [], pastes: [{ id: 1, text: "log\nlines" }] });
    expect(store.get("session:a").text).toBe("half a thought");
    expect(store.get("session:b").text).toBe("");
    store.flush();

    const again = new DraftStore(storage);
    expect(again.get("session:a")).toEqual({ text: "half a thought", images: [pic], pastes: [] });
    expect(again.get("folder:/repo").pastes).toEqual([{ id: 1, text: "log\nlines" }]);
    again.set("session:a", { text: "", images: [], pastes: [] });
    again.flush();
    expect(new DraftStore(storage).get("session:a").text).toBe("");
  });

  it("clears what was sent and keeps what was typed meanwhile", () => {
    const store = new DraftStore(null);
    const images = [image(4)];
    store.set("k", { text: "send me", images, pastes: [] });
    store.sent("k", { text: "send me", images, pastes: [] });
    expect(store.get("k")).toEqual({ text: "", images: [], pastes: [] });
    store.set("k", { text: "typed after", images, pastes: [] });
    store.sent("k", { text: "send me", images, pastes: [] });
    expect(store.get("k").text).toBe("typed after");
  });

  it("stores within the budget: images left out of the stored copy over it, kept in memory", () => {
    const storage = memoryStorage();
    const store = new DraftStore(storage, 5_000);
    const big = [image(3_000), image(3_000)];
    store.set("session:a", { text: "see the screenshots", images: big, pastes: [] });
    store.flush();
    const raw = storage.items.get("memo.drafts")!;
    expect(raw.length).toBeLessThanOrEqual(5_000);
    expect(new DraftStore(storage).get("session:a")).toEqual({ text: "see the screenshots", images: [], pastes: [] });
    expect(store.get("session:a").images).toBe(big);
  });

  it("keeps the newest drafts when they do not all fit, and cuts a huge text to the budget", () => {
    const drafts = new Map([
      ["old", { text: "o".repeat(600), at: 1 }],
      ["new", { text: "n".repeat(600), at: 2 }],
    ]);
    expect(Object.keys(storedCopy(drafts, 1_000))).toEqual(["new"]);
    const huge = storedCopy(new Map([["k", { text: "x".repeat(50_000), at: 1 }]]), 1_000);
    expect(JSON.stringify(huge).length).toBeLessThanOrEqual(1_000);
    expect(huge.k?.text.startsWith("xxx")).toBe(true);
  });
});
