// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { setUpI18n, t } from "../../../i18n";
import { InfoNotice } from "./Notices";

afterEach(cleanup);

describe("InfoNotice", () => {
  it("re-words a note already on screen when the language changes, and leaves others' words alone", async () => {
    render(<InfoNotice title={() => t("transcript:info.cleared")} body="/new  start over" ok />);
    const note = screen.getByTestId("info-notice");
    expect(note.querySelector(".notice__title")?.textContent).toBe("Conversation cleared");
    try {
      await act(() => setUpI18n("zh"));
      expect(note.querySelector(".notice__title")?.textContent).toMatch(/[\u4e00-\u9fff]/);
      expect(note.querySelector(".notice__body")?.textContent).toBe("/new  start over");
    } finally {
      await act(() => setUpI18n("en"));
    }
    expect(note.querySelector(".notice__title")?.textContent).toBe("Conversation cleared");
  });
});
