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

// The pages live once, under app/[lang]/: Chinese at /zh/…, English at the root as always. These are the
// English page routes, rewritten to their /en/… twin (the browser and every link keep the root URL).
const ENGLISH_PAGES = ["/", "/:page(census|changes|coverage|data|faq|incidents)", "/faq/:slug", "/runs/:id", "/servers/:name+"];
const toEnglish = (source) => (source === "/" ? "/en" : `/en${source.replace(/\(.*\)/, "")}`);

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // proxy.ts sees the URL the renderer was asked for (127.0.0.1, not renamed localhost): its rewrites to a 404 path then
  // stay inside the process, where a different origin would make Next proxy a second HTTP request to itself.
  skipProxyUrlNormalize: true,
  // Metadata in <head> for every client, not streamed into the body for browsers only: one answer then
  // serves crawlers and browsers alike, so the front (lib/front) keys no answer on the User-Agent.
  htmlLimitedBots: /./,
  async rewrites() {
    return { beforeFiles: ENGLISH_PAGES.map((source) => ({ source, destination: toEnglish(source) })) };
  },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // Pages change whenever a write does: browsers and CDNs revalidate (ETag) every time.
      ...["/", "/servers/:path+", "/zh", "/zh/servers/:path+"].map((source) => ({
        source,
        headers: [{ key: "Cache-Control", value: "public, max-age=0, must-revalidate" }],
      })),
      // Badges are opened directly as documents too: nothing in them may run or load (later entries win).
      { source: "/badge/:path*", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'" }] },
    ];
  },
};

export default nextConfig;
