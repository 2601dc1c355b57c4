import { connection } from "next/server";
import { NotFoundView } from "./_components/NotFoundView";

// Rendered for each request, not once at build: the wording follows the missing path's section and language,
// which the view reads from the path (a 404 prerendered at build would say the generic English words to every
// reader without JavaScript).
export default async function NotFound() {
  await connection();
  return <NotFoundView />;
}
