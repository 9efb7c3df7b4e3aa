/** Whether the page has hydrated (JavaScript is running): false on the server and in no-JS browsers. */
import { useEffect, useState } from "react";

/** True after the first client effect; lets forms fall back to plain HTML behaviour without JS. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
