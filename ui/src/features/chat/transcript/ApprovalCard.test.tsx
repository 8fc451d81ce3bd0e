// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { ApprovalRequest } from "../../../gen/protocol";
import { ApprovalCard } from "./ApprovalCard";

afterEach(cleanup);

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
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} onResolve={onResolve} />);
    expect(screen.getAllByTestId("approval-hunk")).toHaveLength(2);
    fireEvent.click(screen.getByLabelText("Apply change 1"));
    expect(screen.getByRole("button", { name: "Approve for session" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Apply 1 of 2" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once", accepted_hunks: [1] });
  });

  it("approves the whole change without a hunk list when every hunk is checked", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} onResolve={onResolve} />);
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once" });
  });

  it("cannot approve with nothing selected", () => {
    const onResolve = vi.fn().mockResolvedValue(undefined);
    render(<ApprovalCard item={{ kind: "approval", key: "a", request: TWO_HUNKS, decision: null }} onResolve={onResolve} />);
    fireEvent.click(screen.getByLabelText("Apply change 1"));
    fireEvent.click(screen.getByLabelText("Apply change 2"));
    expect(screen.getByRole("button", { name: "Apply 0 of 2" })).toHaveProperty("disabled", true);
  });
});
