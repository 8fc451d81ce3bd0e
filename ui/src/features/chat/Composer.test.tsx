// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { setUpI18n } from "../../i18n";
import { drafts } from "../../state/drafts";
import { Composer } from "./Composer";
import { messageWithPastes } from "./pastes";

afterEach(() => {
  cleanup();
  drafts.forgetAll();
});

function baseProps() {
  return {
    disabled: false,
    busy: false,
    running: false,
    placeholder: "Ask",
    onSend: vi.fn(async (_text: string, _images?: unknown) => true),
    onStop: vi.fn(),
  };
}

function setup(overrides: Partial<Parameters<typeof Composer>[0]> = {}) {
  const props = { ...baseProps(), ...overrides };
  render(<Composer {...props} />);
  return { props, input: screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement };
}

describe("Composer", () => {
  it("sends on Enter and clears once the message was taken", async () => {
    const { props, input } = setup();
    fireEvent.change(input, { target: { value: "  hello  " } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(input.value).toBe(""));
    expect(props.onSend).toHaveBeenCalledWith("hello", []);
  });

  it("keeps Shift+Enter for new lines", () => {
    const { props, input } = setup();
    fireEvent.change(input, { target: { value: "line" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(props.onSend).not.toHaveBeenCalled();
  });

  it("keeps the draft when sending fails", async () => {
    const { props, input } = setup({ onSend: vi.fn(async () => false) });
    fireEvent.change(input, { target: { value: "keep me" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(props.onSend).toHaveBeenCalled());
    expect(input.value).toBe("keep me");
  });

  it("does not send empty text, while busy, or without a folder", () => {
    const empty = setup();
    fireEvent.keyDown(empty.input, { key: "Enter" });
    expect(empty.props.onSend).not.toHaveBeenCalled();
    expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();

    const busy = setup({ busy: true });
    fireEvent.change(busy.input, { target: { value: "x" } });
    fireEvent.keyDown(busy.input, { key: "Enter" });
    expect(busy.props.onSend).not.toHaveBeenCalled();
    cleanup();

    const disabled = setup({ disabled: true });
    expect(disabled.input.disabled).toBe(true);
  });

  it("turns Send into Stop while a turn runs; Esc stops too", () => {
    const { props, input } = setup({ running: true });
    expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    fireEvent.keyDown(input, { key: "Escape" });
    expect(props.onStop).toHaveBeenCalledTimes(2);
  });
});

describe("Composer with an input method", () => {
  // Pinyin (and Japanese, Korean) compose a word before committing it: the keys of an open
  // composition are the input method's. WebKitGTK marks them isComposing; some input
  // methods send keyCode 229 instead.
  const composing = [{ isComposing: true }, { keyCode: 229 }] as const;

  it.each(composing)("leaves Enter to a composition (%o): it picks the candidate, it does not send", async (marks) => {
    const { props, input } = setup();
    fireEvent.change(input, { target: { value: "ni hao" } });
    expect(fireEvent.keyDown(input, { key: "Enter", ...marks })).toBe(true);
    expect(props.onSend).not.toHaveBeenCalled();
    expect(input.value).toBe("ni hao");
    // The composition ended: the same Enter sends.
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(props.onSend).toHaveBeenCalledWith("ni hao", []));
  });

  it("does not stop a running turn on the Esc that cancels a composition", () => {
    const { props, input } = setup({ running: true });
    expect(fireEvent.keyDown(input, { key: "Escape", isComposing: true })).toBe(true);
    expect(props.onStop).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(props.onStop).toHaveBeenCalledTimes(1);
  });

  it("keeps the arrows, Enter and Esc of a composition out of the suggestion list", async () => {
    const complete = vi.fn(async () => [
      { kind: "command" as const, value: "/help", detail: null },
      { kind: "command" as const, value: "/review", detail: null },
    ]);
    const { props, input } = setup({ complete });
    fireEvent.change(input, { target: { value: "/", selectionStart: 1, selectionEnd: 1 } });
    await screen.findByTestId("composer-suggestions");
    const active = () => screen.getAllByTestId("composer-suggestion").findIndex((li) => li.getAttribute("aria-selected") === "true");
    for (const marks of composing) {
      expect(fireEvent.keyDown(input, { key: "ArrowDown", ...marks })).toBe(true);
      expect(fireEvent.keyDown(input, { key: "ArrowUp", ...marks })).toBe(true);
      expect(fireEvent.keyDown(input, { key: "ArrowUp", ...marks })).toBe(true);
      expect(active()).toBe(0);
      expect(fireEvent.keyDown(input, { key: "Enter", ...marks })).toBe(true);
      expect(fireEvent.keyDown(input, { key: "Escape", ...marks })).toBe(true);
    }
    expect(input.value).toBe("/");
    expect(screen.getByTestId("composer-suggestions")).toBeTruthy();
    expect(props.onSend).not.toHaveBeenCalled();
    // Out of the composition the keys are the list's again.
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(active()).toBe(1);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/review ");
    expect(props.onSend).not.toHaveBeenCalled();
  });

  it("leaves the Space that takes a candidate to the input method, also right after a completion", async () => {
    const complete = vi.fn(async () => [{ kind: "skill" as const, value: "$pdf", detail: null }]);
    const { input } = setup({ complete });
    fireEvent.change(input, { target: { value: "use $p", selectionStart: 6, selectionEnd: 6 } });
    await screen.findByTestId("composer-suggestions");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(input.value).toBe("use $pdf ");
    expect(fireEvent.keyDown(input, { key: " ", isComposing: true })).toBe(true);
  });

  it.each([
    ["／re", "command", "re", "/review "],
    ["看看 ＠s", "path", "s", "看看 @src/"],
    ["用 ＄p", "skill", "p", "用 $pdf "],
    // Chinese punctuation mode's ￥ and 、, and a sigil right after Chinese text.
    ["用 ￥p", "skill", "p", "用 $pdf "],
    ["、re", "command", "re", "/review "],
    ["看看@s", "path", "s", "看看@src/"],
  ])("opens the suggestions after a full-width sigil, as after its ASCII form: %s", async (typed, kind, word, done) => {
    const values: Record<string, string> = { command: "/review", path: "@src/", skill: "$pdf" };
    const complete = vi.fn(async (k: string) => [{ kind: k as "command", value: values[k] ?? "", detail: null }]);
    const { input } = setup({ complete });
    fireEvent.change(input, { target: { value: typed, selectionStart: typed.length, selectionEnd: typed.length } });
    await screen.findByTestId("composer-suggestions");
    expect(complete).toHaveBeenLastCalledWith(kind, word);
    fireEvent.keyDown(input, { key: "Enter" });
    // The completion puts the ASCII sigil in the full-width one's place.
    expect(input.value).toBe(done);
  });
});

describe("Composer in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("says its words in the language chosen, switching without a reload", async () => {
    setup();
    expect(screen.getByRole("button", { name: "Send" })).toBeTruthy();
    await act(async () => {
      await setUpI18n("zh");
    });
    expect(screen.getByRole("button", { name: "发送" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "消息" })).toBeTruthy();
    expect(document.querySelector(".composer__hint")?.textContent).toBe("Enter 发送 · Shift+Enter 换行");
  });

  it("counts a long paste's lines in Chinese, with one plural form", async () => {
    await setUpI18n("zh");
    render(<Composer {...baseProps()} />);
    const input = screen.getByRole("textbox", { name: "消息" });
    const log = Array.from({ length: 300 }, (_, i) => `error ${i}: something broke`).join("\n");
    fireEvent.paste(input, { clipboardData: { files: [], types: ["text/plain"], getData: () => log } });
    expect(screen.getByTestId("composer-paste").textContent).toContain("300 行");
  });
});

describe("Composer prefill", () => {
  it("puts a rewound message in the box to edit, replacing the draft each time", () => {
    const props = baseProps();
    const { rerender } = render(<Composer {...props} prefill={null} />);
    const input = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "half-typed" } });
    rerender(<Composer {...props} prefill={{ id: 1, text: "fix the parser" }} />);
    expect(input.value).toBe("fix the parser");
    expect(document.activeElement).toBe(input);
    rerender(<Composer {...props} prefill={{ id: 2, text: "fix the lexer" }} />);
    expect(input.value).toBe("fix the lexer");
  });
});


describe("Composer suggestions", () => {
  const type = (input: HTMLTextAreaElement, value: string) => {
    fireEvent.change(input, { target: { value, selectionStart: value.length, selectionEnd: value.length } });
  };

  it("suggests after / and @, moves with the arrows and inserts with Enter without sending", async () => {
    const complete = vi.fn(async (kind: string) =>
      kind === "command"
        ? [
            { kind: "command" as const, value: "/help", detail: "list the commands" },
            { kind: "command" as const, value: "/review", detail: null },
          ]
        : [{ kind: "path" as const, value: "@src/", detail: "folder" }],
    );
    const { props, input } = setup({ complete });
    type(input, "/re");
    const items = await screen.findAllByTestId("composer-suggestion");
    expect(items.map((i) => i.textContent)).toEqual(["/helplist the commands", "/review"]);
    expect(complete).toHaveBeenLastCalledWith("command", "re");
    fireEvent.keyDown(input, { key: "ArrowDown" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/review ");
    expect(props.onSend).not.toHaveBeenCalled();
    expect(screen.queryByTestId("composer-suggestions")).toBeNull();

    type(input, "look at @s");
    await screen.findByTestId("composer-suggestions");
    expect(complete).toHaveBeenLastCalledWith("path", "s");
    fireEvent.keyDown(input, { key: "Tab" });
    // A folder stays open for the next segment.
    expect(input.value).toBe("look at @src/");
  });

  it("never leaves two spaces after a completed $skill: a space typed right after it is the one added", async () => {
    const complete = vi.fn(async () => [{ kind: "skill" as const, value: "$pdf", detail: null }]);
    const { input } = setup({ complete });
    // A key the browser would type, unless the composer took it.
    const press = (key: string) => {
      if (fireEvent.keyDown(input, { key })) type(input, input.value + key);
    };
    type(input, "use $p");
    await screen.findByTestId("composer-suggestions");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(input.value).toBe("use $pdf ");
    press(" ");
    expect(input.value).toBe("use $pdf ");
    // Only the first: a space typed after that is the person's own.
    press("t");
    press(" ");
    expect(input.value).toBe("use $pdf t ");

    // Completed in the middle, before a space already there: none is added.
    fireEvent.change(input, { target: { value: "use $p now", selectionStart: 6, selectionEnd: 6 } });
    await screen.findByTestId("composer-suggestions");
    fireEvent.keyDown(input, { key: "Tab" });
    expect(input.value).toBe("use $pdf now");
  });

  it("closes on Esc and sends normally when nothing is suggested", async () => {
    const complete = vi.fn(async () => [{ kind: "skill" as const, value: "$pdf", detail: null }]);
    const { props, input } = setup({ complete });
    type(input, "use $p");
    await screen.findByTestId("composer-suggestions");
    fireEvent.keyDown(input, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("composer-suggestions")).toBeNull());
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(props.onSend).toHaveBeenCalledWith("use $p", []));
  });
});

describe("Composer images", () => {
  const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], "shot.png", { type: "image/png" });

  it("takes a pasted image, shows it, and sends it with the message", async () => {
    const { props, input } = setup();
    fireEvent.paste(input, { clipboardData: { files: [png()], types: ["Files"] } });
    expect(await screen.findByAltText("shot.png")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(props.onSend).toHaveBeenCalled());
    const [text, images] = vi.mocked(props.onSend).mock.calls[0] as unknown as [string, unknown[]];
    expect(text).toBe("");
    expect(images).toEqual([{ media_type: "image/png", data: "iVBORw0KGgo=", name: "shot.png" }]);
    await waitFor(() => expect(screen.queryByAltText("shot.png")).toBeNull());
  });

  it("refuses what is not an image or too large, saying why, and removes on ×", async () => {
    const { input } = setup();
    const text = new File(["hello"], "notes.txt", { type: "text/plain" });
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "huge.png", { type: "image/png" });
    fireEvent.paste(input, { clipboardData: { files: [png(), text, huge], types: ["Files"] } });
    const problem = await screen.findByTestId("composer-image-problem");
    expect(problem.textContent).toContain("huge.png: larger than 5 MB");
    fireEvent.click(screen.getByRole("button", { name: "Remove shot.png" }));
    expect(screen.queryByAltText("shot.png")).toBeNull();
  });
});

describe("Composer long pastes", () => {
  const paste = (input: HTMLTextAreaElement, text: string) =>
    fireEvent.paste(input, { clipboardData: { files: [], types: ["text/plain"], getData: (t: string) => (t === "text/plain" ? text : "") } });

  it("keeps a long paste out of the box as a chip, and sends it in a fenced block after the text", async () => {
    const { props, input } = setup();
    const log = Array.from({ length: 300 }, (_, i) => `error ${i}: something broke`).join("\n");
    expect(paste(input, log)).toBe(false);
    expect(input.value).toBe("");
    const chip = screen.getByTestId("composer-paste");
    expect(chip.textContent).toContain("error 0: something broke");
    expect(chip.textContent).toContain("300 lines");
    expect(chip.textContent).toContain(`≈${Math.ceil(log.length / 4).toLocaleString("en-US")} tokens`);

    fireEvent.change(input, { target: { value: "why?" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(props.onSend).toHaveBeenCalled());
    expect(vi.mocked(props.onSend).mock.calls[0]![0]).toBe(`why?\n\nPasted text (300 lines):\n\`\`\`\n${log}\n\`\`\``);
    await waitFor(() => expect(screen.queryByTestId("composer-paste")).toBeNull());
  });

  it("lets a short paste into the box, and removes a chip on ×", () => {
    const { input } = setup();
    expect(paste(input, "short")).toBe(true);
    paste(input, "x".repeat(5000));
    fireEvent.click(screen.getByRole("button", { name: "Remove pasted text" }));
    expect(screen.queryByTestId("composer-paste")).toBeNull();
  });

  it("uses a fence longer than any backticks in the paste", () => {
    const text = "has ``` inside\nand ````` too";
    expect(messageWithPastes("", [{ id: 1, text }])).toBe(`Pasted text (2 lines):\n\`\`\`\`\`\`\n${text}\n\`\`\`\`\`\``);
  });
});

describe("Composer drafts", () => {
  const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], "shot.png", { type: "image/png" });
  const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;

  it("keeps each session's draft, its text and images, across switching sessions and Settings", async () => {
    const props = baseProps();
    const { rerender, unmount } = render(<Composer {...props} draftKey="session:a" />);
    fireEvent.change(box(), { target: { value: "half a thought" } });
    fireEvent.paste(box(), { clipboardData: { files: [png()], types: ["Files"] } });
    await screen.findByAltText("shot.png");

    // Another session in front: its own (empty) draft.
    rerender(<Composer {...props} draftKey="session:b" />);
    expect(box().value).toBe("");
    expect(screen.queryByAltText("shot.png")).toBeNull();
    fireEvent.change(box(), { target: { value: "for b" } });

    rerender(<Composer {...props} draftKey="session:a" />);
    expect(box().value).toBe("half a thought");
    expect(screen.getByAltText("shot.png")).toBeTruthy();

    // Settings replace the chat (the composer goes) and close again.
    unmount();
    render(<Composer {...props} draftKey="session:b" />);
    expect(box().value).toBe("for b");
  });

  it("clears the draft once sent, also when the folder's draft became the new session's", async () => {
    let resolveSend: (ok: boolean) => void = () => {};
    const onSend = vi.fn(() => new Promise<boolean>((resolve) => (resolveSend = resolve)));
    const props = { ...baseProps(), onSend };
    const { rerender } = render(<Composer {...props} draftKey="folder:/repo" />);
    fireEvent.change(box(), { target: { value: "start here" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    // The session starts while the message is on its way: the draft goes with it.
    rerender(<Composer {...props} draftKey="session:new" />);
    expect(box().value).toBe("start here");
    resolveSend(true);
    await waitFor(() => expect(box().value).toBe(""));
    expect(drafts.get("session:new").text).toBe("");
    expect(drafts.get("folder:/repo").text).toBe("");
    rerender(<Composer {...props} draftKey="folder:/repo" />);
    expect(box().value).toBe("");
  });

  it("clears a sent draft even when the composer went before the send ended", async () => {
    let resolveSend: (ok: boolean) => void = () => {};
    const onSend = vi.fn(() => new Promise<boolean>((resolve) => (resolveSend = resolve)));
    const props = { ...baseProps(), onSend };
    const { unmount } = render(<Composer {...props} draftKey="session:a" />);
    fireEvent.change(box(), { target: { value: "on its way" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    unmount();
    resolveSend(true);
    await waitFor(() => expect(drafts.get("session:a").text).toBe(""));
    render(<Composer {...props} draftKey="session:a" />);
    expect(box().value).toBe("");
  });

  it("does not put a rewound message in again over the draft when it comes back", () => {
    const props = baseProps();
    const prefill = { id: 1, text: "rewound" };
    const { unmount } = render(<Composer {...props} draftKey="session:a" prefill={prefill} />);
    expect(box().value).toBe("rewound");
    fireEvent.change(box(), { target: { value: "rewound, edited" } });
    unmount();
    render(<Composer {...props} draftKey="session:a" prefill={prefill} />);
    expect(box().value).toBe("rewound, edited");
  });
});
