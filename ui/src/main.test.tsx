// @vitest-environment jsdom
// Start-up in Chinese: its catalogs are not in the bundle, so main.tsx loads them before
// the first render; the first frame is already in Chinese, never English first.
import { expect, it, vi } from "vitest";

const firstWords = vi.hoisted(() => [] as string[]);
vi.mock("./App", async () => {
  const { useT } = await import("./i18n");
  return {
    App: () => {
      firstWords.push(useT("appearance")("title"));
      return null;
    },
  };
});
vi.mock("./ipc/mailbox", () => ({ receiveMessages: () => {} }));
vi.mock("./state/windowSignals", () => ({ onWindowSignal: () => {} }));

it("renders the first time in the chosen language, its catalogs loaded before", async () => {
  document.body.innerHTML = '<div id="root"></div>';
  window.localStorage.setItem("memo.language", "zh");
  try {
    await import("./main");
    await vi.waitFor(() => expect(firstWords.length).toBeGreaterThan(0));
    expect(firstWords[0]).toBe("外观");
    expect(document.documentElement.lang).toBe("zh-CN");
  } finally {
    window.localStorage.clear();
  }
});
