import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { curlCommand, shellQuote } from "@/lib/site/curl";

// Runs the quoted word through a real sh and prints it back: what the shell sees is what we meant.
function throughShell(word: string): string {
  return execFileSync("sh", ["-c", `printf '%s' ${word}`], { encoding: "utf8" });
}

describe("shellQuote", () => {
  const cases = [
    "plain",
    "",
    "it's",
    "'",
    "''",
    "$(touch /tmp/pwned) `id` $HOME",
    'double "quotes" and \\ backslash',
    "line\nbreak\ttab",
    "-X DELETE",
    "!history *glob* ?x [a] ~user #comment ;& |",
    "unicode 协议 ✓",
  ];
  for (const value of cases) {
    test(`the shell reads back ${JSON.stringify(value)} unchanged`, () => {
      expect(throughShell(shellQuote(value))).toBe(value);
    });
  }

  test("leaves safe words bare and quotes everything else", () => {
    expect(shellQuote("https://a.example/mcp")).toBe("https://a.example/mcp");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe("curlCommand", () => {
  test("reproduces a POST with its headers and body, without following redirects", () => {
    const cmd = curlCommand({
      phase: "discover",
      method: "POST",
      url: "https://mcp.example.com/mcp?a=1&b=2",
      requestHeaders: { "content-type": "application/json", "mcp-method": "server/discover", "content-length": "12", host: "x" },
      requestBody: `{"jsonrpc":"2.0","id":"it's"}`,
    });
    expect(cmd).toBe(
      `curl -sS -i --max-time 30 -X POST -H 'content-type: application/json' -H 'mcp-method: server/discover' --data-raw '{"jsonrpc":"2.0","id":"it'\\''s"}' --url 'https://mcp.example.com/mcp?a=1&b=2'`,
    );
    expect(cmd).not.toContain("-L");
    expect(cmd).not.toContain("content-length");
  });

  test("a GET stream gets -N and no method flag or body", () => {
    const cmd = curlCommand({
      phase: "sse_stream",
      method: "GET",
      url: "https://a.example/sse",
      requestHeaders: { accept: "text/event-stream" },
    });
    expect(cmd).toBe("curl -sS -i --max-time 30 -N -H 'accept: text/event-stream' --url https://a.example/sse");
  });

  test("hostile header values and URLs stay single words for the shell", () => {
    const cmd = curlCommand({
      phase: "tools_call",
      method: "POST",
      url: "https://a.example/$(id)",
      requestHeaders: { "x-evil": "'; rm -rf / #" },
      requestBody: "@/etc/passwd",
    });
    const argv = JSON.parse(
      execFileSync("sh", ["-c", `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${cmd.replace(/^curl /, "")}`], {
        encoding: "utf8",
      }),
    ) as string[];
    expect(argv).toContain("x-evil: '; rm -rf / #");
    expect(argv).toContain("https://a.example/$(id)");
    // --data-raw sends "@…" literally instead of reading a file.
    expect(argv[argv.indexOf("@/etc/passwd") - 1]).toBe("--data-raw");
  });
});
