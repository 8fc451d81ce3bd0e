import { describe, expect, it } from "vitest";

import type { AppInfo } from "../gen/protocol";
import { IpcError } from "../ipc";
import { appInfoReducer, initialAppInfoState, memoPath } from "./appInfo";

const INFO: AppInfo = {
  version: "0.1.0",
  memo_home: "/tmp/memo",
  platform: "linux-x86_64",
  engine: "memo-engine 0.1.0",
  time_zone: null,
  languages: [],
};

describe("appInfoReducer", () => {
  it("starts loading and becomes ready with the info", () => {
    expect(initialAppInfoState).toEqual({ status: "loading" });
    const next = appInfoReducer(initialAppInfoState, { type: "loaded", info: INFO });
    expect(next).toEqual({ status: "ready", info: INFO });
  });

  it("records a failure", () => {
    const error = new IpcError("app_info", "config", "no home", false);
    expect(appInfoReducer(initialAppInfoState, { type: "failed", error })).toEqual({
      status: "error",
      error,
    });
  });

  it("keeps showing the last good info while a retry is in flight", () => {
    const ready = appInfoReducer(initialAppInfoState, { type: "loaded", info: INFO });
    expect(appInfoReducer(ready, { type: "requested" })).toBe(ready);
  });

  it("goes back to loading when retrying after a failure", () => {
    const error = new IpcError("app_info", "unavailable", "later", true);
    const failed = appInfoReducer(initialAppInfoState, { type: "failed", error });
    expect(appInfoReducer(failed, { type: "requested" })).toEqual({ status: "loading" });
  });
});

describe("memoPath", () => {
  it("joins inside the Memo home with its own separator", () => {
    expect(memoPath("/srv/memo-data", "skills")).toBe("/srv/memo-data/skills");
    expect(memoPath("/srv/memo-data/", "trash", "skills")).toBe("/srv/memo-data/trash/skills");
    expect(memoPath("C:\\Users\\me\\.memo", "config.toml")).toBe("C:\\Users\\me\\.memo\\config.toml");
  });
});
