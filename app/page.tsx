export const dynamic = "force-dynamic";

export default function Home() {
  return (
    <main>
      <h1>mcp-status</h1>
    </main>
  );
}
