import { describe, expect, test } from "vitest";
import { challengeProblem, parseWwwAuthenticate } from "@/lib/probe/www-authenticate";

type Expected = { scheme: string; params?: Record<string, string>; token68?: string }[];

const plain = (r: ReturnType<typeof parseWwwAuthenticate>) =>
  r.ok
    ? r.challenges.map((c) => ({ scheme: c.scheme, params: { ...c.params }, ...(c.token68 !== undefined ? { token68: c.token68 } : {}) }))
    : r;

describe("WWW-Authenticate (RFC 9110 §11.6.1)", () => {
  const valid: [string, string | string[], Expected][] = [
    ["bare scheme", "Bearer", [{ scheme: "Bearer" }]],
    [
      "MCP-style challenge",
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"',
      [
        {
          scheme: "Bearer",
          params: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource", scope: "files:read" },
        },
      ],
    ],
    [
      "token values",
      "Bearer realm=example, error=invalid_token",
      [{ scheme: "Bearer", params: { realm: "example", error: "invalid_token" } }],
    ],
    [
      "case-insensitive names are lower-cased, scheme kept",
      'BEARER Realm="x", SCOPE="a b"',
      [{ scheme: "BEARER", params: { realm: "x", scope: "a b" } }],
    ],
    ["comma inside a quoted string", 'Bearer realm="a, b", scope="x"', [{ scheme: "Bearer", params: { realm: "a, b", scope: "x" } }]],
    ["escaped quote and backslash", 'Bearer realm="say \\"hi\\" \\\\ now"', [{ scheme: "Bearer", params: { realm: 'say "hi" \\ now' } }]],
    ["BWS around =", 'Bearer realm = "x" , scope= y', [{ scheme: "Bearer", params: { realm: "x", scope: "y" } }]],
    [
      "two challenges in one field",
      'Basic realm="simple", Bearer resource_metadata="https://a/prm"',
      [
        { scheme: "Basic", params: { realm: "simple" } },
        { scheme: "Bearer", params: { resource_metadata: "https://a/prm" } },
      ],
    ],
    [
      "RFC 9110 example with token68 and empty elements",
      'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
      [
        { scheme: "Newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
        { scheme: "Basic", params: { realm: "simple" } },
      ],
    ],
    ["token68", "Negotiate YIIFzwYGKwYBBQUCoIIFwzCCBb+gMDAu==", [{ scheme: "Negotiate", token68: "YIIFzwYGKwYBBQUCoIIFwzCCBb+gMDAu==" }]],
    [
      "token68 followed by another challenge",
      "Negotiate abc=, Bearer realm=x",
      [
        { scheme: "Negotiate", token68: "abc=" },
        { scheme: "Bearer", params: { realm: "x" } },
      ],
    ],
    ["a name with an empty value is, by the grammar, a token68", "Bearer realm=", [{ scheme: "Bearer", token68: "realm=" }]],
    ["bare schemes in a list", "Basic, Bearer", [{ scheme: "Basic" }, { scheme: "Bearer" }]],
    ["empty list elements are allowed", ' , Bearer realm="x" ,, ', [{ scheme: "Bearer", params: { realm: "x" } }]],
    [
      "repeated header fields",
      ['Basic realm="a"', 'Bearer resource_metadata="https://a/prm"'],
      [
        { scheme: "Basic", params: { realm: "a" } },
        { scheme: "Bearer", params: { resource_metadata: "https://a/prm" } },
      ],
    ],
    ["empty quoted value", 'Bearer realm=""', [{ scheme: "Bearer", params: { realm: "" } }]],
    ["tab inside quotes", 'Bearer realm="a\tb"', [{ scheme: "Bearer", params: { realm: "a\tb" } }]],
  ];
  test.each(valid)("parses %s", (_name, input, expected) => {
    const got = plain(parseWwwAuthenticate(input));
    expect(got).toEqual(expected.map((c) => ({ scheme: c.scheme, params: c.params ?? {}, ...(c.token68 ? { token68: c.token68 } : {}) })));
  });

  const invalid: [string, string | string[]][] = [
    ["empty", ""],
    ["only commas", " , , "],
    ["unterminated quoted string", 'Bearer realm="abc'],
    ["parameter without value before another parameter", "Bearer realm=, scope=x"],
    ["parameter with a space inside an unquoted value", "Bearer realm=a b"],
    ["garbage after a quoted value", 'Bearer realm="a"x'],
    ["scheme is not a token", '"Bearer" realm=x'],
    ["tab instead of a space after the scheme", "Bearer\trealm=x"],
    ["repeated parameter in one challenge", "Bearer realm=a, realm=b"],
    ["control character in quotes", 'Bearer realm="a\u0001b"'],
    ["backslash at the end of a quoted string", 'Bearer realm="abc\\'],
    ["one broken field among repeated fields", ["Bearer realm=x", 'Basic realm="oops']],
    ["a JSON body pasted as a header", '{"error":"unauthorized"}'],
    ["equals with no name", "Bearer =x"],
  ];
  test.each(invalid)("rejects %s", (_name, input) => {
    expect(parseWwwAuthenticate(input).ok).toBe(false);
  });

  test("a __proto__ parameter stays a plain value and does not reach Object.prototype", () => {
    const r = parseWwwAuthenticate('Bearer __proto__="polluted"');
    expect(r.ok && Object.getOwnPropertyDescriptor(r.challenges[0]!.params, "__proto__")?.value).toBe("polluted");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    [[], null],
    [['Bearer realm="zoo"'], null],
    [['Bearer resource_metadata="https://x/prm, scope='], "unterminated quoted string"],
    [['Bearer realm="zoo", scope='], 'parameter "scope" has no value'],
    [[", ,"], "the header holds no challenge, only separators or nothing"],
    [['Bearer realm="a", realm="b"'], 'parameter "realm" repeated in one challenge'],
  ] as const)("challengeProblem(%j) names what is wrong with a present header: %s", (fields, problem) => {
    expect(challengeProblem(fields)).toBe(problem);
  });
});
