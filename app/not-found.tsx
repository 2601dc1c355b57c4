import { NotFoundView } from "./_components/NotFoundView";

export default function NotFound() {
  return <NotFoundView />;
}
