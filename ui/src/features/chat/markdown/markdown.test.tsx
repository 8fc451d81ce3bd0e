// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const openUrl = vi.hoisted(() => vi.fn((_url: string) => Promise.resolve()));
vi.mock("@tauri-apps/plugin-opener", () => ({ openUrl }));

import { findLanguage, highlight, loadParser } from "./highlight";
import { loadHighlighter } from "./highlighter";
import { Markdown, splitBlocks } from "./Markdown";

function renderMarkdown(text: string): HTMLElement {
  const { container } = render(<Markdown text={text} />);
  return container.querySelector(".md") as HTMLElement;
}

afterEach(cleanup);

beforeEach(() => {
  openUrl.mockClear();
});

describe("Markdown (GFM)", () => {
  it("renders paragraphs, emphasis and inline code", () => {
    const md = renderMarkdown("Use `cargo test` **now**, *please*.\n\nmy_var_name and 2 * 3 * 4");
    const paragraphs = md.querySelectorAll(":scope > .md__run > p");
    expect(paragraphs).toHaveLength(2);
    expect(md.querySelector("code.md__code")?.textContent).toBe("cargo test");
    expect(md.querySelector("strong")?.textContent).toBe("now");
    expect(md.querySelector("em")?.textContent).toBe("please");
    expect(paragraphs[1]?.textContent).toBe("my_var_name and 2 * 3 * 4");
  });

  it("renders a table inside a horizontally scrolling wrapper", () => {
    const md = renderMarkdown("| a | b |\n|---|:-:|\n| 1 | `2` |\n| 3 | 4 |");
    const table = md.querySelector(".md__table-wrap > table");
    expect(table).not.toBeNull();
    expect([...table!.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["a", "b"]);
    expect([...table!.querySelectorAll("tbody tr")].map((tr) => tr.textContent)).toEqual(["12", "34"]);
    expect(table!.querySelector("td code")?.textContent).toBe("2");
  });

  it("renders task lists with disabled checkboxes", () => {
    const md = renderMarkdown("- [x] read the code\n- [ ] write the fix");
    const boxes = md.querySelectorAll<HTMLInputElement>("li input[type=checkbox]");
    expect(boxes).toHaveLength(2);
    expect(boxes[0]?.checked).toBe(true);
    expect(boxes[1]?.checked).toBe(false);
    expect([...boxes].every((box) => box.disabled)).toBe(true);
    expect(md.querySelector("li")?.textContent).toContain("read the code");
  });

  it("renders nested lists as nested elements", () => {
    const md = renderMarkdown("1. first\n   - inner a\n   - inner b\n2. second");
    const outer = md.querySelector(":scope > .md__run > ol");
    expect(outer?.children).toHaveLength(2);
    const inner = outer?.querySelector("li > ul");
    expect([...(inner?.querySelectorAll("li") ?? [])].map((li) => li.textContent)).toEqual(["inner a", "inner b"]);
  });

  it("renders strikethrough, but not for a single tilde", () => {
    const md = renderMarkdown("~~gone~~ and it takes ~5 min, ~10 at most");
    expect(md.querySelectorAll("del")).toHaveLength(1);
    expect(md.querySelector("del")?.textContent).toBe("gone");
  });

  it("turns bare URLs into links", () => {
    const md = renderMarkdown("See https://example.com/docs and www.rust-lang.org.");
    const links = [...md.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://example.com/docs", "http://www.rust-lang.org"]);
  });

  it("renders headings, quotes and rules", () => {
    const md = renderMarkdown("# Title\n### Sub\n> quoted\n\n---");
    expect(md.querySelector("h3.md__heading")?.textContent).toBe("Title");
    expect(md.querySelector("h4.md__heading")?.textContent).toBe("Sub");
    expect(md.querySelector("blockquote")?.textContent?.trim()).toBe("quoted");
    expect(md.querySelector("hr")).not.toBeNull();
  });
});

describe("Markdown (raw HTML)", () => {
  it("shows HTML from the model as text, never as elements", () => {
    const md = renderMarkdown(
      "<img src=x onerror=alert(1)> **bold**\n\n<script>alert(1)</script>\n\n<div onclick=\"alert(1)\">hi</div>\n\nand <b>inline</b>",
    );
    expect(md.querySelector("img")).toBeNull();
    expect(md.querySelector("script")).toBeNull();
    expect(md.querySelector("div[onclick]")).toBeNull();
    expect(md.querySelector("b")).toBeNull();
    expect(md.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(md.textContent).toContain("<script>alert(1)</script>");
    expect(md.querySelector("strong")?.textContent).toBe("bold");
  });

  it("does not load images from the model's URLs", () => {
    const md = renderMarkdown("![a cat](https://example.com/cat.png)");
    expect(md.querySelector("img")).toBeNull();
    expect(md.textContent).toContain("a cat");
  });
});

describe("Markdown (links)", () => {
  it("opens http(s) links in the system browser instead of navigating", () => {
    const md = renderMarkdown("Read [the docs](https://example.com/a?b=1).");
    const link = within(md).getByRole("link", { name: "the docs" });
    expect(link.getAttribute("rel")).toBe("noreferrer");
    expect(link.getAttribute("title")).toBe("https://example.com/a?b=1");
    // fireEvent returns false when the default action (navigation) was prevented.
    expect(fireEvent.click(link)).toBe(false);
    expect(openUrl).toHaveBeenCalledWith("https://example.com/a?b=1");
    expect(window.location.href).toBe("http://localhost:3000/");
  });

  it("opens mailto links too", () => {
    const md = renderMarkdown("Write to <mailto:me@example.com>.");
    fireEvent.click(within(md).getByRole("link"));
    expect(openUrl).toHaveBeenCalledWith("mailto:me@example.com");
  });

  it("does not make javascript:, file: or relative links clickable", () => {
    const md = renderMarkdown("[evil](javascript:alert(1)) [file](file:///etc/passwd) [rel](src/main.rs) [anchor](#x)");
    expect(md.querySelector("a")).toBeNull();
    expect(within(md).queryAllByRole("link")).toHaveLength(0);
    const evil = within(md).getByText("evil");
    expect(evil.tagName).toBe("SPAN");
    expect(evil.getAttribute("href")).toBeNull();
    fireEvent.click(evil);
    expect(openUrl).not.toHaveBeenCalled();
    expect(md.textContent).toContain("file");
    expect(within(md).getByText("rel").getAttribute("title")).toBe("src/main.rs");
  });
});

describe("Markdown (code blocks)", () => {
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, "clipboard");
  });

  function mockClipboard(writeText: (text: string) => Promise<void>) {
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  }

  it("shows the code verbatim, including Markdown-looking lines, and copies it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const writeText = vi.fn((_text: string) => Promise.resolve());
    mockClipboard(writeText);
    const md = renderMarkdown("Run:\n```\n# not a heading\n  - not a list\n<b>x</b>\n```\nDone.");
    const block = within(md).getByTestId("code-block");
    expect(block.getAttribute("data-language")).toBeNull();
    expect(block.querySelector("pre")?.textContent).toBe("# not a heading\n  - not a list\n<b>x</b>");
    expect(md.querySelector("h1, h3, ul, b")).toBeNull();

    const copy = within(block).getByTestId("code-copy");
    expect(copy.textContent).toBe("Copy");
    fireEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith("# not a heading\n  - not a list\n<b>x</b>");
    expect(await within(block).findByText("Copied")).toBe(copy);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(copy.textContent).toBe("Copy");
  });

  it("says so when copying fails", async () => {
    mockClipboard(() => Promise.reject(new Error("denied")));
    renderMarkdown("```sh\nls\n```");
    fireEvent.click(screen.getByTestId("code-copy"));
    expect(await screen.findByText("Copy failed")).toBe(screen.getByTestId("code-copy"));
  });

  it("treats an unclosed fence (still streaming) as code to the end", () => {
    const md = renderMarkdown("Here:\n```rust\nfn main() {\n    # not a heading");
    expect(within(md).getByTestId("code-block").querySelector("pre")?.textContent).toBe(
      "fn main() {\n    # not a heading",
    );
  });

  it("highlights a known language once its grammar has loaded", async () => {
    const source = 'const answer: number = 42; // why\nfunction greet() { return "hi"; }';
    const md = renderMarkdown("```ts\n" + source + "\n```");
    const block = within(md).getByTestId("code-block");
    expect(block.getAttribute("data-language")).toBe("ts");
    await waitFor(() => expect(block.getAttribute("data-highlighted")).toBe("true"));
    const code = block.querySelector("pre code") as HTMLElement;
    expect(code.textContent).toBe(source);
    expect(code.querySelector(".hl-keyword")?.textContent).toBe("const");
    expect(code.querySelector(".hl-string")?.textContent).toBe('"hi"');
    expect(code.querySelector(".hl-number")?.textContent).toBe("42");
    expect(code.querySelector(".hl-comment")?.textContent).toBe("// why");
    expect(code.querySelector("script, img")).toBeNull();
  });

  it("highlights at once when the highlighter and the grammar are already loaded", async () => {
    await loadHighlighter();
    const python = findLanguage("py");
    expect(python?.name).toBe("Python");
    await loadParser(python!);
    const md = renderMarkdown("```python\ndef f():\n    return None\n```");
    const block = within(md).getByTestId("code-block");
    expect(block.getAttribute("data-highlighted")).toBe("true");
    expect(block.querySelector(".hl-keyword")?.textContent).toBe("def");
  });

  it("leaves unknown and plain languages as plain text", async () => {
    expect(findLanguage("text")).toBeNull();
    expect(findLanguage("no-such-language")).toBeNull();
    const md = renderMarkdown("```no-such-language\nconst x = 1;\n```\n\n```text\nconst y = 2;\n```");
    const blocks = within(md).getAllByTestId("code-block");
    expect(blocks.map((block) => block.getAttribute("data-language"))).toEqual(["no-such-language", "text"]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    for (const block of blocks) {
      expect(block.querySelector("pre code span")).toBeNull();
      expect(block.getAttribute("data-highlighted")).toBeNull();
    }
  });

  it("maps common fence names to grammars", () => {
    expect(findLanguage("rs")?.name).toBe("Rust");
    expect(findLanguage("bash")?.name).toBe("Shell");
    expect(findLanguage("TypeScript")?.name).toBe("TypeScript");
    expect(findLanguage("tsx")?.name).toBe("TSX");
    expect(findLanguage("json")?.name).toBe("JSON");
  });

  it("reuses highlighting for unchanged text", async () => {
    const parser = await loadParser(findLanguage("js")!);
    const first = highlight("let a = 1;", parser!, "JavaScript");
    expect(highlight("let a = 1;", parser!, "JavaScript")).toBe(first);
    expect(first.map((token) => token.text).join("")).toBe("let a = 1;");
  });

  it("keeps highlighting while the block grows during streaming", async () => {
    const { rerender, container } = render(<Markdown text={"```js\nlet a"} />);
    await waitFor(() => expect(container.querySelector("[data-highlighted]")).not.toBeNull());
    rerender(<Markdown text={"```js\nlet a = 1;\nlet b"} />);
    const code = container.querySelector("pre code") as HTMLElement;
    expect(code.textContent).toBe("let a = 1;\nlet b");
    expect([...code.querySelectorAll(".hl-keyword")].map((span) => span.textContent)).toEqual(["let", "let"]);
  });
});

describe("Markdown split into blocks (a streaming answer re-parses only its last one)", () => {
  it("cuts at blank lines before top-level blocks, never inside a fence or before an indented line", () => {
    const text = [
      "Intro paragraph.",
      "",
      "- item one",
      "",
      "  continued under the item",
      "- item two",
      "",
      "```rust",
      "fn a() {}",
      "",
      "fn b() {}",
      "```",
      "",
      "Last words.",
    ].join("\n");
    expect(splitBlocks(text)).toEqual([
      "Intro paragraph.\n",
      "- item one\n\n  continued under the item\n- item two\n",
      "```rust\nfn a() {}\n\nfn b() {}\n```\n",
      "Last words.",
    ]);
    expect(splitBlocks(text).join("\n")).toBe(text);
    expect(splitBlocks("")).toEqual([""]);
    // An unclosed fence (still streaming) keeps everything after it.
    expect(splitBlocks("a\n\n```\ncode\n\nmore")).toEqual(["a\n", "```\ncode\n\nmore"]);
  });

  it("renders the same as the text parsed whole", () => {
    const text = "# Title\n\nSome **bold** text.\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\nend";
    const { container } = render(<Markdown text={text} />);
    expect(container.querySelector("h3")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelectorAll("ol li")).toHaveLength(2);
    expect(container.querySelectorAll("td")).toHaveLength(2);
    expect(container.querySelector("blockquote")?.textContent?.trim()).toBe("quoted");
    expect(container.querySelector(".md > .md__run:last-child")?.lastElementChild?.textContent).toBe("end");
  });

  it("while text streams in, re-renders what was cut before exactly as cutting it whole", () => {
    const whole = "# Plan\n\nFirst paragraph.\n\n```sh\nls\n\npwd\n```\n\n- a\n\n  more of a\n- b\n\nDone.";
    const { container, rerender } = render(<Markdown text="" />);
    for (let n = 1; n <= whole.length; n += 3) {
      rerender(<Markdown text={whole.slice(0, n)} />);
    }
    rerender(<Markdown text={whole} />);
    const streamed = container.innerHTML;
    cleanup();
    const { container: once } = render(<Markdown text={whole} />);
    expect(streamed).toBe(once.innerHTML);
  });

  it("streams a long answer in runs of blocks: in order, and settled blocks and runs kept", () => {
    const parts = Array.from({ length: 80 }, (_, i) => (i % 7 === 3 ? `- item ${i}\n- next ${i}` : `Paragraph ${i}.`));
    const whole = parts.join("\n\n");
    const { container, rerender } = render(<Markdown text="" />);
    for (let n = 1; n <= whole.length; n += 37) rerender(<Markdown text={whole.slice(0, n)} />);
    const md = container.querySelector(".md") as HTMLElement;
    const firstRun = md.firstElementChild;
    const first = firstRun?.firstElementChild;
    rerender(<Markdown text={whole} />);
    // The first run and block are the elements made when they were streamed, not made again.
    expect(md.firstElementChild).toBe(firstRun);
    expect(firstRun?.firstElementChild).toBe(first);
    // Runs of 32 blocks: 32 + 32 + 16.
    expect([...md.children].map((run) => [run.className, run.children.length])).toEqual([
      ["md__run", 32],
      ["md__run", 32],
      ["md__run", 16],
    ]);
    const blocks = [...md.querySelectorAll(":scope > .md__run > *")];
    expect(blocks.map((block) => block.textContent?.trim().split(/\s/)[1])).toEqual(
      parts.map((_, i) => String(i) + (i % 7 === 3 ? "" : ".")),
    );
    const streamed = container.innerHTML;
    cleanup();
    expect(render(<Markdown text={whole} />).container.innerHTML).toBe(streamed);
  });

  it("keeps a loose list one list and does not cut text that defines references", () => {
    expect(splitBlocks("- a\n\n- b\n\n1. one\n\n2. two\n\nAfter.")).toEqual(["- a\n\n- b\n\n1. one\n\n2. two\n", "After."]);
    const text = "See [the docs][d].\n\nMore text.\n\n[d]: https://example.com";
    expect(splitBlocks(text)).toEqual([text]);
    const { container } = render(<Markdown text={"- a\n\n- b"} />);
    expect(container.querySelectorAll("ul")).toHaveLength(1);
  });
});
