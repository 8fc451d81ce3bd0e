// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { TrustDecision, WorkspaceTrustReport } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { TrustBanner } from "./TrustBanner";
import { TrustDialog } from "./TrustDialog";
import { TrustPage } from "./TrustPage";
import { useWorkspaceTrust } from "./useWorkspaceTrust";

const { ipc } = vi.hoisted(() => ({
  ipc: {
    workspaceTrust: vi.fn(),
    setWorkspaceTrust: vi.fn(),
    trustDecisions: vi.fn(),
    forgetWorkspaceTrust: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);
beforeEach(() => Object.values(ipc).forEach((f) => f.mockReset()));

const ASKING: WorkspaceTrustReport = {
  folder: "/home/u/shop",
  state: "unasked",
  needs_decision: true,
  servers: [{ file: ".mcp.json", name: "db", runs: "npx -y @acme/db-mcp --url postgres://localhost" }],
  permissions: [],
  hooks: [],
  prompt_files: [],
};

describe("useWorkspaceTrust", () => {
  it("prompts on open when the folder would start something, and records the decision", async () => {
    ipc.workspaceTrust.mockResolvedValue(ASKING);
    ipc.setWorkspaceTrust.mockResolvedValue({ ...ASKING, state: "trusted", needs_decision: false });
    const { result } = renderHook(() => useWorkspaceTrust("/home/u/shop"));
    await waitFor(() => expect(result.current.prompting).toBe(true));
    await act(() => result.current.decide(true));
    expect(ipc.setWorkspaceTrust).toHaveBeenCalledWith({ cwd: "/home/u/shop", trusted: true });
    expect(result.current.prompting).toBe(false);
    expect(result.current.report?.state).toBe("trusted");
  });

  it("does not prompt for a folder that runs nothing, nor again after a dismissal", async () => {
    ipc.workspaceTrust.mockResolvedValue({ ...ASKING, servers: [], needs_decision: false });
    const quiet = renderHook(() => useWorkspaceTrust("/home/u/plain"));
    await waitFor(() => expect(ipc.workspaceTrust).toHaveBeenCalled());
    expect(quiet.result.current.prompting).toBe(false);
    quiet.unmount();

    ipc.workspaceTrust.mockResolvedValue(ASKING);
    const { result } = renderHook(() => useWorkspaceTrust("/home/u/shop"));
    await waitFor(() => expect(result.current.prompting).toBe(true));
    act(() => result.current.dismiss());
    await act(async () => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(ipc.workspaceTrust).toHaveBeenCalledTimes(3));
    expect(result.current.prompting).toBe(false);
    act(() => result.current.review());
    expect(result.current.prompting).toBe(true);
  });
});

describe("TrustDialog", () => {
  it("lists exactly what would run and focuses the safe answer", () => {
    const onDecide = vi.fn();
    render(<TrustDialog report={ASKING} saving={false} error={null} onDecide={onDecide} onDismiss={vi.fn()} />);
    expect(screen.getByText("Trust shop?")).toBeTruthy();
    expect(screen.getByTestId("trust-servers").textContent).toContain("npx -y @acme/db-mcp --url postgres://localhost");
    expect(document.activeElement).toBe(screen.getByTestId("trust-refuse"));
    fireEvent.click(screen.getByTestId("trust-accept"));
    expect(onDecide).toHaveBeenCalledWith(true);
  });

  it("lists a project's allow rules too", () => {
    render(
      <TrustDialog
        report={{ ...ASKING, servers: [], permissions: [{ file: ".claude/settings.json", text: "Bash(curl:*)" }] }}
        saving={false}
        error={null}
        onDecide={vi.fn()}
        onDismiss={vi.fn()}
      />,
    );
    expect(screen.getByTestId("trust-servers").textContent).toContain("Bash(curl:*)");
  });

  it("lists a project's hooks with the moment they run at", () => {
    render(
      <TrustDialog
        report={{ ...ASKING, servers: [], hooks: ["hook PreToolUse Bash: ./scripts/guard.sh"] }}
        saving={false}
        error={null}
        onDecide={vi.fn()}
        onDismiss={vi.fn()}
      />,
    );
    const list = screen.getByTestId("trust-servers");
    expect(list.textContent).toContain("Hook on PreToolUse Bash");
    expect(list.querySelector("code")?.textContent).toBe("./scripts/guard.sh");
  });

  it("lists a project's SYSTEM.md with what it would change, and the banner says Memo's own instructions are used", () => {
    const report: WorkspaceTrustReport = {
      ...ASKING,
      servers: [],
      prompt_files: [{ path: ".memo/SYSTEM.md", effect: { code: "system_file_replaces" } }],
    };
    render(<TrustDialog report={report} saving={false} error={null} onDecide={vi.fn()} onDismiss={vi.fn()} />);
    const list = screen.getByTestId("trust-servers");
    expect(list.textContent).toContain(".memo/SYSTEM.md");
    expect(list.textContent).toContain("safety rules included");
    cleanup();
    render(<TrustBanner report={report} onReview={vi.fn()} />);
    expect(screen.getByTestId("trust-banner").textContent).toContain(
      "its .memo/SYSTEM.md is not used (Memo's own base instructions are).",
    );
  });

  it("says when a trusted folder now starts something new", () => {
    render(
      <TrustDialog report={{ ...ASKING, state: "changed" }} saving={false} error={null} onDecide={vi.fn()} onDismiss={vi.fn()} />,
    );
    expect(screen.getByText("shop now starts something new")).toBeTruthy();
  });
});

describe("TrustBanner", () => {
  it("shows only while the folder's servers are off", () => {
    const onReview = vi.fn();
    const { rerender } = render(<TrustBanner report={ASKING} onReview={onReview} />);
    expect(screen.getByTestId("trust-banner").textContent).toContain("its MCP server db is not used");
    fireEvent.click(screen.getByTestId("trust-review"));
    expect(onReview).toHaveBeenCalled();
    rerender(<TrustBanner report={{ ...ASKING, state: "trusted", needs_decision: false }} onReview={onReview} />);
    expect(screen.queryByTestId("trust-banner")).toBeNull();
  });
});

describe("in Chinese", () => {
  it("asks and says what is off in Chinese", async () => {
    await setUpI18n("zh");
    try {
      const report = { ...ASKING, permissions: [{ file: ".claude/settings.json", text: "Bash(curl:*)" }] };
      render(<TrustDialog report={report} saving={false} error={null} onDecide={vi.fn()} onDismiss={vi.fn()} />);
      expect(screen.getByText("信任 shop？")).toBeTruthy();
      expect(screen.getByTestId("trust-accept").textContent).toBe("信任此文件夹");
      cleanup();
      render(<TrustBanner report={report} onReview={vi.fn()} />);
      expect(screen.getByTestId("trust-banner").textContent).toContain("此文件夹尚未受信任，以下内容不会被使用：MCP 服务器 db、1 条允许规则。");
    } finally {
      setUpI18n("en");
    }
  });
});

describe("TrustPage", () => {
  it("lists decisions and forgets one", async () => {
    const decision: TrustDecision = {
      folder: "/home/u/shop",
      trusted: true,
      items: [".mcp.json db: npx -y @acme/db-mcp"],
      decided_at: 1_790_000_000,
    };
    ipc.trustDecisions.mockResolvedValueOnce([decision]).mockResolvedValueOnce([]);
    ipc.forgetWorkspaceTrust.mockResolvedValue(undefined);
    render(<TrustPage />);
    expect((await screen.findByTestId("trust-decision")).textContent).toContain(".mcp.json db: npx -y @acme/db-mcp");
    fireEvent.click(screen.getByTestId("trust-forget"));
    await screen.findByTestId("trust-page-empty");
    expect(ipc.forgetWorkspaceTrust).toHaveBeenCalledWith({ folder: "/home/u/shop" });
  });
});
