const securityHeaders = [
  {
    key: "Content-Security-Policy",
    value:
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Cached pages are keyed by data version (proxy.ts): old versions are never read again, so they stay in a
  // bounded in-memory LRU and are not written to disk, where they would pile up round after round.
  // A server page with its payload is ~250 KB: this keeps about 800 of the most read ones.
  cacheMaxMemorySize: 192 * 1024 * 1024,
  experimental: { isrFlushToDisk: false },
  // proxy.ts rewrites to the URL it was given; normalising it would turn 127.0.0.1 into localhost, which Next
  // then treats as an external rewrite when the server is bound to 127.0.0.1.
  skipProxyUrlNormalize: true,
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // Cached pages change whenever a write does (proxy.ts): browsers and CDNs revalidate (ETag) every time.
      ...["/", "/servers/:path+"].map((source) => ({ source, headers: [{ key: "Cache-Control", value: "public, max-age=0, must-revalidate" }] })),
      // Badges are opened directly as documents too: nothing in them may run or load (later entries win).
      { source: "/badge/:path*", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'" }] },
    ];
  },
};

export default nextConfig;
