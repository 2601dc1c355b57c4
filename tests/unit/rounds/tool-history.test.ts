import { describe, expect, test } from "vitest";
import { canonicalJson, canonicalToolList, diffToolLists, hashToolList } from "@/lib/rounds/tool-history";

const search = {
  name: "search",
  description: "Search the docs",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  annotations: { readOnlyHint: true },
};
const fetchTool = { name: "fetch", description: "Fetch a page", inputSchema: { type: "object", properties: {} } };

describe("tool history", () => {
  test("canonical JSON sorts keys at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  test("the hash ignores key order and tool order but not content", () => {
    const reordered = [
      { inputSchema: { properties: {}, type: "object" }, description: "Fetch a page", name: "fetch" },
      { annotations: { readOnlyHint: true }, name: "search", description: "Search the docs", inputSchema: search.inputSchema },
    ];
    const h1 = hashToolList(canonicalToolList([search, fetchTool]));
    expect(hashToolList(canonicalToolList(reordered))).toBe(h1);
    expect(hashToolList(canonicalToolList([{ ...search, description: "Search" }, fetchTool]))).not.toBe(h1);
  });

  test("an identical list has no differences", () => {
    expect(diffToolLists([search, fetchTool], [fetchTool, search])).toEqual([]);
  });

  test("added and removed tools are whole-tool changes with the tool's JSON", () => {
    const d = diffToolLists([search], [fetchTool]);
    expect(d).toEqual([
      { toolName: "fetch", kind: "added", path: "", before: null, after: canonicalJson(fetchTool) },
      { toolName: "search", kind: "removed", path: "", before: canonicalJson(search), after: null },
    ]);
  });

  test("changed fields are reported by field path with before and after", () => {
    const changed = {
      ...search,
      description: "Search the documentation",
      inputSchema: { type: "object", properties: { q: { type: "number" }, limit: { type: "integer" } }, required: ["q"] },
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    const d = diffToolLists([search], [changed]);
    expect(d.map((c) => [c.kind, c.path, c.before, c.after])).toEqual([
      ["changed", "annotations.destructiveHint", null, "true"],
      ["changed", "annotations.readOnlyHint", "true", "false"],
      ["changed", "description", '"Search the docs"', '"Search the documentation"'],
      ["changed", "inputSchema.properties.limit", null, '{"type":"integer"}'],
      ["changed", "inputSchema.properties.q.type", '"string"', '"number"'],
    ]);
    expect(d.every((c) => c.toolName === "search")).toBe(true);
  });

  test("arrays change as a whole and odd keys are quoted in paths", () => {
    const a = { name: "t", inputSchema: { type: "object", required: ["a"], properties: { "x.y": { type: "string" } } } };
    const b = { name: "t", inputSchema: { type: "object", required: ["a", "b"], properties: { "x.y": { type: "number" } } } };
    expect(diffToolLists([a], [b]).map((c) => c.path)).toEqual(['inputSchema.properties."x.y".type', "inputSchema.required"]);
  });

  test("a malformed list has a stable hash and a precise diff: duplicate names and tools without one", () => {
    const echoA = { name: "echo", description: "Echo", inputSchema: { type: "object" } };
    const echoB = { name: "echo", description: "Echo again", inputSchema: "{}" };
    const nameless = { description: "nameless", inputSchema: { type: "object" } };
    const list = [echoA, echoB, nameless];
    // Wire order of duplicates and nameless tools is no change.
    expect(hashToolList(canonicalToolList([nameless, echoB, echoA]))).toBe(hashToolList(canonicalToolList(list)));
    expect(diffToolLists(list, [echoB, nameless, echoA])).toEqual([]);
    // One duplicate changes: that one is reported, the identical twin is not.
    expect(diffToolLists(list, [echoA, { ...echoB, description: "Echo, louder" }, nameless])).toEqual([
      { toolName: "echo", kind: "changed", path: "description", before: '"Echo again"', after: '"Echo, louder"' },
    ]);
    // A third definition of the name is an addition; a removed nameless tool is a removal.
    expect(diffToolLists(list, [echoA, echoB, echoA]).map((c) => [c.toolName, c.kind])).toEqual([
      ["#1", "removed"],
      ["echo", "added"],
    ]);
  });
});
