import type { HostGate } from "../probe/transport/http";

/** One holder per host at a time, first come first served: the probe's politeness rule across a whole round. */
export function createHostGate(): HostGate & { readonly busyHosts: number } {
  const tails = new Map<string, Promise<void>>();
  return {
    get busyHosts() {
      return tails.size;
    },
    async acquire(host: string): Promise<() => void> {
      const key = host.toLowerCase();
      const prev = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const tail = prev.then(() => mine);
      tails.set(key, tail);
      await prev;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
        // The last holder leaves no entry behind, so the map stays as small as the set of busy hosts.
        if (tails.get(key) === tail) tails.delete(key);
      };
    },
  };
}
