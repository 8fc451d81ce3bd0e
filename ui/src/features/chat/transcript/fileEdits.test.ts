import { describe, expect, it } from "vitest";

import { contentDiff, diffsFromArgs, editsDiff, patchDiffs } from "./fileEdits";

describe("diffs rebuilt from a file tool's arguments", () => {
  it("turns an old_string/new_string edit into a hunk with the shared lines as context", () => {
    const diff = editsDiff("src/a.rs", [
      { old_string: "fn a() {\n    one();\n}\n", new_string: "fn a() {\n    two();\n    three();\n}\n" },
    ]);
    expect(diff.hunks).toEqual([
      { index: 0, header: "Edit", text: " fn a() {\n-    one();\n+    two();\n+    three();\n }\n" },
    ]);
  });

  it("gives each of several edits its own hunk and says when one replaces every occurrence", () => {
    const args = JSON.stringify({
      file_path: "x.ts",
      edits: [
        { old_string: "a", new_string: "b" },
        { old_string: "c", new_string: "d", replace_all: true },
      ],
    });
    const [diff] = diffsFromArgs("apply_patch", args) ?? [];
    expect(diff?.path).toBe("x.ts");
    expect(diff?.hunks.map((hunk) => [hunk.header, hunk.text])).toEqual([
      ["Edit 1 of 2", "-a\n+b\n"],
      ["Edit 2 of 2 · every occurrence", "-c\n+d\n"],
    ]);
    expect(diffsFromArgs("apply_patch", JSON.stringify({ file_path: "x", old_string: "a", new_string: "" }))?.[0]?.hunks[0]?.text).toBe(
      "-a\n",
    );
  });

  it("shows write_file's content as added lines numbered from 1", () => {
    expect(diffsFromArgs("write_file", JSON.stringify({ file_path: "n.txt", content: "one\ntwo\n" }))).toEqual([
      contentDiff("n.txt", "one\ntwo\n"),
    ]);
    expect(contentDiff("n.txt", "one\ntwo").hunks[0]).toEqual({ index: 0, header: "@@ -0,0 +1,2 @@", text: "+one\n+two\n" });
  });

  it("splits a Begin Patch text into a diff per file, keeping its lines as written", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# Title",
      "+",
      "*** Delete File: old.txt",
      "*** Update File: src/a.rs",
      "*** Move to: src/b.rs",
      "@@ fn main",
      " let x = 1;",
      "-let y = 2;",
      "+let y = 3;",
      "*** End of File",
      "*** End Patch",
    ].join("\n");
    const diffs = patchDiffs(patch);
    expect(diffs?.map((diff) => diff.path)).toEqual(["docs/new.md", "old.txt", "src/a.rs → src/b.rs"]);
    expect(diffs?.[0]?.hunks).toEqual([{ index: 0, header: "@@ -0,0 +1,2 @@", text: "+# Title\n+\n" }]);
    expect(diffs?.[1]?.hunks[0]?.header).toBe("File deleted");
    expect(diffs?.[2]?.hunks).toEqual([
      { index: 0, header: "@@ fn main", text: " let x = 1;\n-let y = 2;\n+let y = 3;\n*** End of File\n" },
    ]);
    expect(diffsFromArgs("apply_patch", JSON.stringify({ input: patch }))).toEqual(diffs);
  });

  it("gives up on arguments still streaming or not meant for it", () => {
    expect(diffsFromArgs("write_file", '{"file_path":"a.txt","content":"par')).toBeNull();
    expect(diffsFromArgs("apply_patch", JSON.stringify({ input: "not a patch" }))).toBeNull();
    expect(diffsFromArgs("apply_patch", JSON.stringify({ file_path: "a", edits: [{ old_string: 1 }] }))).toBeNull();
    expect(diffsFromArgs("read_file", JSON.stringify({ file_path: "a" }))).toBeNull();
  });
});
