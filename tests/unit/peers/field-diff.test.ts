import { describe, expect, test } from "vitest";
import { flatten, keyedTools, toolListDifferences } from "./official-reader";

const tool = { name: "search", inputSchema: { type: "object", properties: { "a/b": { type: "string" }, q: { enum: [1, 2] } } } };

describe("field-path diff of tool lists", () => {
  test("flattens to JSON-pointer paths with escaped keys and empty containers as leaves", () => {
    const flat = flatten({ x: { "a/b": 1, "t~": [] }, y: {} });
    expect([...flat.entries()]).toEqual([
      ["/x/a~1b", "1"],
      ["/x/t~0", "[]"],
      ["/y", "{}"],
    ]);
  });

  test("finds no difference between a list and a reordered deep copy", () => {
    const other = { name: "other", inputSchema: { type: "object" } };
    expect(toolListDifferences([tool, other], structuredClone([other, tool]))).toEqual([]);
  });

  test("reports changed, added and removed fields by path", () => {
    const changed = structuredClone(tool);
    changed.inputSchema.properties.q.enum = [1, 3];
    (changed as Record<string, unknown>).title = "Search";
    delete (changed.inputSchema.properties as Record<string, unknown>)["a/b"];
    expect(toolListDifferences([tool], [changed])).toEqual([
      { path: "/search/inputSchema/properties/a~1b/type", ours: '"string"', theirs: undefined },
      { path: "/search/inputSchema/properties/q/enum/1", ours: "2", theirs: "3" },
      { path: "/search/title", ours: undefined, theirs: '"Search"' },
    ]);
  });

  test("keys by index when names repeat or are missing", () => {
    expect(Object.keys(keyedTools([{ name: "a" }, { name: "a" }]))).toEqual(["#0", "#1"]);
  });
});
