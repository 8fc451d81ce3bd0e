// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { ApprovalRequest, ReviewDecision } from "../../../gen/protocol";
import { useSheets } from "../../../test/styles";
import { ApprovalCard, ApprovalInCard, editOutcome, hunkOutcome, ResolveApprovalContext, type ResolveApproval } from "./ApprovalCard";

afterEach(cleanup);

/** Render options putting `resolve` where the cards read how to answer. */
function withResolve(resolve: ResolveApproval) {
  return {
    wrapper: ({ children }: { children: ReactNode }) => (
      <ResolveApprovalContext.Provider value={resolve}>{children}</ResolveApprovalContext.Provider>
    ),
  };
}

const TWO_HUNKS: ApprovalRequest = {
  request_id: "r1",
  call_id: "c1",
  tool_name: "apply_patch",
  risk: "write",
  reason: "edit f.txt",
  fingerprint: "write:/repo/f.txt",
  cwd: "/repo",
  diff: {
    path: "f.txt",
    unified: "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-line 2\n+line two\n@@ -37,3 +37,3 @@\n-line 38\n+line thirty-eight\n",
    hunks: [
      { index: 0, header: "@@ -1,3 +1,3 @@", text: "-line 2\n+line two\n" },
      { index: 1, header: "@@ -37,3 +37,3 @@", text: "-line 38\n+line thirty-eight\n" },
    ],
  },
  arguments: {},
};

describe("ApprovalCard with several hunks", () => {
  it("sends only the hunks left checked and blocks a session grant for a partial change", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} />, withResolve(onResolve));
    expect(screen.getAllByTestId("approval-hunk")).toHaveLength(2);
    fireEvent.click(screen.getByLabelText("Apply change 1"));
    expect(screen.getByRole("button", { name: "Approve for session" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Apply 1 of 2" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once", accepted_hunks: [1] });
  });

  it("approves the whole change without a hunk list when every hunk is checked", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} />, withResolve(onResolve));
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once" });
  });

  it("cannot approve with nothing selected", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} />, withResolve(onResolve));
    fireEvent.click(screen.getByLabelText("Apply change 1"));
    fireEvent.click(screen.getByLabelText("Apply change 2"));
    expect(screen.getByRole("button", { name: "Apply 0 of 2" })).toHaveProperty("disabled", true);
  });
});

// Two edits on neighbouring lines: one hunk of the whole change, so only edit by edit can
// one be taken and the other left.
const THREE_EDITS: ApprovalRequest = {
  ...TWO_HUNKS,
  tool_name: "edit",
  diff: {
    path: "f.txt",
    unified: "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,4 @@\n-one\n-two\n+ONE\n+TWO\n three\n@@ -13,3 +13,3 @@\n-fourteen\n+FOURTEEN\n",
    hunks: [
      { index: 0, header: "@@ -1,4 +1,4 @@", text: "-one\n-two\n+ONE\n+TWO\n three\n" },
      { index: 1, header: "@@ -13,3 +13,3 @@", text: "-fourteen\n+FOURTEEN\n" },
    ],
    edits: [
      { index: 0, label: "Edit 1 of 3 · line 1", hunks: [{ index: 0, header: "@@ -1,2 +1,2 @@", text: "-one\n+ONE\n two\n" }] },
      { index: 1, label: "Edit 2 of 3 · line 2", hunks: [{ index: 0, header: "@@ -1,3 +1,3 @@", text: " ONE\n-two\n+TWO\n three\n" }] },
      { index: 2, label: "Edit 3 of 3 · line 14", hunks: [{ index: 0, header: "@@ -13,3 +13,3 @@", text: "-fourteen\n+FOURTEEN\n" }] },
    ],
  },
};

describe("ApprovalCard with several edits", () => {
  const pending = (onResolve = vi.fn().mockResolvedValue(undefined)) => {
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: THREE_EDITS, decision: null }} />, withResolve(onResolve));
    return onResolve;
  };

  it("shows each edit under its label with what it alone changes, to pick edit by edit", () => {
    pending();
    const edits = screen.getAllByTestId("approval-edit");
    expect(edits.map((e) => e.querySelector(".approval__edit-label")?.textContent)).toEqual([
      "Edit 1 of 3 · line 1",
      "Edit 2 of 3 · line 2",
      "Edit 3 of 3 · line 14",
    ]);
    const added = (edit: HTMLElement) =>
      within(edit)
        .getAllByTestId("diff-line")
        .filter((l) => l.dataset.kind === "add")
        .map((l) => l.querySelector(".diff__code")?.textContent);
    // The second edit's own change only, though it shares a hunk of the file with the first.
    expect(added(edits[1]!)).toEqual(["TWO"]);
    expect(added(edits[0]!)).toEqual(["ONE"]);
    // Picked per edit, not per hunk of the whole change.
    expect(screen.queryByLabelText("Apply change 1")).toBeNull();
    expect(screen.getByTestId("approval-diff").textContent).toContain("3 of 3 selected");
  });

  it("sends the edits left checked, and holds back the grants for part of a change", () => {
    const onResolve = pending();
    fireEvent.click(screen.getByLabelText("Apply Edit 2 of 3 · line 2"));
    expect(screen.getByTestId("approval-diff").textContent).toContain("2 of 3 selected");
    expect(screen.getAllByTestId("approval-edit").map((e) => e.dataset.state ?? null)).toEqual([null, "excluded", null]);
    const session = screen.getByRole("button", { name: "Approve for session" });
    expect(session).toHaveProperty("disabled", true);
    expect(session.title).toMatch(/check every edit/);
    fireEvent.click(screen.getByRole("button", { name: "Apply 2 of 3" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once", accepted_edits: [0, 2] });
  });

  it("approves the call as made when every edit is checked", () => {
    const onResolve = pending();
    fireEvent.click(screen.getByLabelText("Apply Edit 3 of 3 · line 14"));
    fireEvent.click(screen.getByLabelText("Apply Edit 3 of 3 · line 14"));
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once" });
  });

  it("cannot apply none of them", () => {
    pending();
    for (const n of ["1 of 3 · line 1", "2 of 3 · line 2", "3 of 3 · line 14"]) fireEvent.click(screen.getByLabelText(`Apply Edit ${n}`));
    const apply = screen.getByRole("button", { name: "Apply 0 of 3" });
    expect(apply).toHaveProperty("disabled", true);
    expect(apply.title).toBe("Check at least one edit to apply");
  });

  it("once answered, marks each edit applied or not and counts them", () => {
    const { rerender } = render(
      <ApprovalCard
        item={{ kind: "approval", key: "a", request: THREE_EDITS, decision: { type: "approve_once", accepted_edits: [0, 2] } }}
      />,
      withResolve(vi.fn()),
    );
    const edits = () => screen.getAllByTestId("approval-edit");
    expect(edits().map((e) => e.dataset.state)).toEqual(["applied", "rejected", "applied"]);
    expect(edits().map((e) => within(e).getByTestId("hunk-state").textContent)).toEqual(["Applied", "Not applied", "Applied"]);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Applied 2 of 3 edits");
    expect(screen.queryByLabelText("Apply Edit 1 of 3 · line 1")).toBeNull();

    rerender(<ApprovalCard item={{ kind: "approval", key: "a", request: THREE_EDITS, decision: { type: "approve_once" } }} />);
    expect(edits().map((e) => e.dataset.state)).toEqual(["applied", "applied", "applied"]);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Approved once");

    rerender(<ApprovalCard item={{ kind: "approval", key: "a", request: THREE_EDITS, decision: { type: "deny" } }} />);
    expect(edits().map((e) => e.dataset.state)).toEqual(["rejected", "rejected", "rejected"]);
  });

  it("picks hunk by hunk as before when the call made one edit", () => {
    const one = { ...THREE_EDITS, diff: { ...THREE_EDITS.diff!, edits: [THREE_EDITS.diff!.edits![0]!] } };
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: one, decision: null }} />, withResolve(vi.fn()));
    expect(screen.queryByTestId("approval-edit")).toBeNull();
    expect(screen.getByLabelText("Apply change 2")).toBeTruthy();
  });

  it("reads edit outcomes from the decision", () => {
    expect(editOutcome({ type: "approve_once", accepted_edits: [1] }, 1)).toBe("applied");
    expect(editOutcome({ type: "approve_once", accepted_edits: [1] }, 0)).toBe("rejected");
    expect(editOutcome({ type: "approve_for_session" }, 0)).toBe("applied");
    expect(editOutcome({ type: "deny" }, 0)).toBe("rejected");
  });
});

describe("ApprovalCard grants", () => {
  const RULED: ApprovalRequest = { ...TWO_HUNKS, rule_patterns: ["f.txt"] };

  it("draws the Always buttons as enabled secondary buttons, and says why they are off for part of a change", () => {
    const remove = useSheets(import.meta.url, "../../../styles/app.css");
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: RULED, decision: null }} />, withResolve(vi.fn()));
    const always = screen.getByTestId("approve-always") as HTMLButtonElement;
    const other = screen.getByTestId("approve-always-project") as HTMLButtonElement;
    expect(always.disabled).toBe(false);
    // Like its neighbour, not faded as the quiet style drew it (it looked disabled).
    for (const property of ["color", "background", "font-weight"]) {
      expect(getComputedStyle(always).getPropertyValue(property)).toBe(getComputedStyle(other).getPropertyValue(property));
    }
    remove();

    fireEvent.click(screen.getByLabelText("Apply change 1"));
    for (const id of ["approve-always", "approve-always-project"]) {
      const button = screen.getByTestId(id) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.title).toMatch(/whole change/);
    }
    expect(screen.getByRole("button", { name: "Approve for session" }).title).toMatch(/whole change/);
  });
});

describe("ApprovalCard once answered", () => {
  const answered = (decision: ReviewDecision) =>
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision }} />, withResolve(vi.fn()));
  const states = () =>
    screen.getAllByTestId("approval-hunk").map((hunk) => within(hunk).getByTestId("hunk-state").textContent);

  it("shows which hunks a partial approval applied and which it left out", () => {
    answered({ type: "approve_once", accepted_hunks: [1] });
    expect(states()).toEqual(["Not applied", "Applied"]);
    const [first, second] = screen.getAllByTestId("approval-hunk");
    expect(first?.getAttribute("data-state")).toBe("rejected");
    expect(second?.getAttribute("data-state")).toBe("applied");
    expect(screen.getByTestId("approval-decision").textContent).toBe("Applied 1 of 2 changes");
    // The choice is made: no checkboxes left to change it.
    expect(screen.queryByLabelText("Apply change 1")).toBeNull();
  });

  it("applies every hunk for a plain or session approval, and none for a denial", () => {
    const { unmount } = answered({ type: "approve_once" });
    expect(states()).toEqual(["Applied", "Applied"]);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Approved once");
    unmount();

    const session = answered({ type: "approve_for_session" });
    expect(states()).toEqual(["Applied", "Applied"]);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Approved for this session");
    session.unmount();

    answered({ type: "deny" });
    expect(states()).toEqual(["Not applied", "Not applied"]);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Denied");
  });

  it("marks hunks left unchecked while the request waits", () => {
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} />, withResolve(vi.fn()));
    expect(screen.queryByTestId("hunk-state")).toBeNull();
    fireEvent.click(screen.getByLabelText("Apply change 2"));
    expect(screen.getByTestId("hunk-state").textContent).toBe("Won't be applied");
    expect(screen.getByTestId("approval-diff").textContent).toContain("1 of 2 selected");
  });

  it("reads hunk outcomes from the decision", () => {
    expect(hunkOutcome({ type: "approve_once", accepted_hunks: [0, 2] }, 2)).toBe("applied");
    expect(hunkOutcome({ type: "approve_once", accepted_hunks: [0, 2] }, 1)).toBe("rejected");
    expect(hunkOutcome({ type: "approve_once", accepted_hunks: null }, 1)).toBe("applied");
    expect(hunkOutcome({ type: "deny", reason: "no" }, 0)).toBe("rejected");
  });
});

describe("ApprovalCard always answers", () => {
  const COMMAND: ApprovalRequest = {
    ...TWO_HUNKS,
    tool_name: "exec_command",
    risk: "execute",
    reason: "run `cargo test -p x`",
    fingerprint: "exec:cargo test",
    command: "cargo test -p x",
    diff: null,
    rule_patterns: ["cargo test"],
  };

  it("offers to keep the rule it names, in this folder or everywhere", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: COMMAND, decision: null }} />, withResolve(onResolve));
    expect(screen.getByTestId("approval-rule").textContent).toContain("cargo test");
    fireEvent.click(screen.getByTestId("approve-always-project"));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_always", project: true });
  });

  it("offers no rule when none can be kept (critical calls)", () => {
    render(
      <ApprovalCard
        item={{ kind: "approval", key: "a", request: { ...COMMAND, risk: "critical", rule_patterns: [] }, decision: null }}
      />,
      withResolve(vi.fn()),
    );
    expect(screen.queryByTestId("approve-always")).toBeNull();
    expect(screen.queryByTestId("approval-rule")).toBeNull();
  });

  it("says what an always answer did", () => {
    render(
      <ApprovalCard item={{ kind: "approval", key: "a", request: COMMAND, decision: { type: "approve_always", project: true } }} />,
      withResolve(vi.fn()),
    );
    expect(screen.getByTestId("approval-decision").textContent).toBe("Always allowed in this folder");
  });
});

describe("An approval in its tool card, with more calls of its tool waiting", () => {
  it("offers to approve them all at once, and says so once answered", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    const { rerender } = render(
      <ApprovalInCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} sameToolWaiting={2} />,
      withResolve(onResolve),
    );
    expect(screen.getByTestId("approval-card").dataset.state).toBe("pending");
    fireEvent.click(screen.getByTestId("approve-step"));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_step" });
    expect(screen.getByTestId("approve-step").textContent).toBe("Approve all 3");
    rerender(<ApprovalInCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: { type: "approve_step" } }} sameToolWaiting={2} />);
    expect(screen.getByTestId("approval-decision").textContent).toBe("Approved with the rest of this step");
    // Answered, the card's own diff shows what was written: the proposal goes.
    expect(screen.queryByTestId("approval-diff")).toBeNull();
    expect(screen.getByTestId("approval-card").dataset.state).toBe("approved");
  });

  it("offers no such answer for a lone call, nor on a card of its own", () => {
    const pending = { kind: "approval" as const, key: "a", request: TWO_HUNKS, decision: null };
    const { unmount } = render(<ApprovalInCard item={pending} sameToolWaiting={0} />, withResolve(vi.fn()));
    expect(screen.queryByTestId("approve-step")).toBeNull();
    unmount();
    render(<ApprovalCard item={pending} />, withResolve(vi.fn()));
    expect(screen.queryByTestId("approve-step")).toBeNull();
  });

  it("asks the critical once, never for the whole step", () => {
    const critical = { ...TWO_HUNKS, risk: "critical" as const };
    render(<ApprovalInCard item={{ kind: "approval", key: "a", request: critical, decision: null }} sameToolWaiting={3} />, withResolve(vi.fn()));
    expect(screen.queryByTestId("approve-step")).toBeNull();
  });
});

describe("ApprovalCard for a command", () => {
  it("offers no session grant: commands ask every time unless a rule allows them", () => {
    const command: ApprovalRequest = { ...TWO_HUNKS, tool_name: "exec_command", risk: "execute", diff: null, command: "ls", rule_patterns: ["ls"] };
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: command, decision: null }} />, withResolve(vi.fn()));
    expect(screen.queryByRole("button", { name: "Approve for session" })).toBeNull();
    expect(screen.getByTestId("approve-always-project")).toBeTruthy();
  });
  it("says in the engine's words what Always keeps: an exact command for one that writes", () => {
    const request: ApprovalRequest = {
      ...TWO_HUNKS,
      tool_name: "exec_command",
      risk: "execute",
      diff: null,
      command: "sed -i 's/a/b/' notes.txt",
      rule_patterns: ["sed -i s/a/b/ notes.txt"],
      rule_summary: "run exactly `sed -i s/a/b/ notes.txt` without asking",
    };
    render(<ApprovalCard item={{ kind: "approval", key: "a", request, decision: null }} />, withResolve(vi.fn()));
    const rule = screen.getByTestId("approval-rule");
    expect(rule.textContent).toBe("“Always” lets Memo run exactly sed -i s/a/b/ notes.txt without asking; edit it in Settings → Approvals.");
    expect(rule.querySelector("code")?.textContent).toBe("sed -i s/a/b/ notes.txt");
  });
});

describe("ApprovalCard for an MCP tool", () => {
  const MCP: ApprovalRequest = {
    request_id: "r2",
    call_id: "c2",
    tool_name: "github__create_issue",
    risk: "write",
    reason: 'the MCP server "github" would run its tool "create_issue" (rated by Memo)',
    fingerprint: "mcp:github:create_issue",
    command: 'github · create_issue {"title":"x"}',
    arguments: { title: "x" },
    rule_patterns: ["github:create_issue"],
  };

  it("names the tool server · tool in its title and its rule, the model's name only in a tooltip", () => {
    render(<ApprovalCard item={{ kind: "approval", key: "m", request: MCP, decision: null }} />, withResolve(vi.fn()));
    const card = screen.getByTestId("approval-card");
    const title = card.querySelector(".approval__title code")!;
    expect(title.textContent).toBe("github · create_issue");
    expect(title.getAttribute("title")).toBe("called as github__create_issue");
    const rule = within(screen.getByTestId("approval-rule")).getByText("github · create_issue");
    expect(rule.getAttribute("title")).toBe("rule github:create_issue");
    expect(card.textContent).not.toContain("github__create_issue");
    expect(card.textContent).not.toContain("github:create_issue");
  });
});

