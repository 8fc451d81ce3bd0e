// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { loadAttentionPrefs, onAttentionPrefs } from "../../state/attentionPrefs";
import { NotificationsPage } from "./NotificationsPage";

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe("NotificationsPage", () => {
  it("turns notifications and the badge off and on, saved per Memo home and announced", () => {
    const heard = vi.fn();
    const stop = onAttentionPrefs("/home/a/.memo", heard);
    render(<NotificationsPage scope="/home/a/.memo" />);
    const desktop = screen.getByTestId("notify-desktop") as HTMLInputElement;
    const badge = screen.getByTestId("notify-badge") as HTMLInputElement;
    expect(desktop.checked).toBe(true);
    expect(badge.checked).toBe(true);
    fireEvent.click(desktop);
    expect(loadAttentionPrefs(window.localStorage, "/home/a/.memo")).toEqual({ desktop: false, badge: true });
    expect(heard).toHaveBeenLastCalledWith({ desktop: false, badge: true });
    fireEvent.click(badge);
    expect(loadAttentionPrefs(window.localStorage, "/home/a/.memo")).toEqual({ desktop: false, badge: false });
    // Another home keeps its own.
    expect(loadAttentionPrefs(window.localStorage, "/other")).toEqual({ desktop: true, badge: true });
    stop();
  });

  it("reads damaged storage as the defaults", () => {
    window.localStorage.setItem("memo.attention:/h", "{not json");
    expect(loadAttentionPrefs(window.localStorage, "/h")).toEqual({ desktop: true, badge: true });
    window.localStorage.setItem("memo.attention:/h", JSON.stringify({ desktop: "no" }));
    expect(loadAttentionPrefs(window.localStorage, "/h")).toEqual({ desktop: true, badge: true });
  });
});
