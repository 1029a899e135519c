/**
 * The one concurrency limiter of the transport: at most `cap` holders per key at once (a client
 * address's open connections, its chunk uploads in flight). `take` answers a release function, or
 * null when the key is at its cap; releasing twice counts once, so it can be tied to every event
 * that may end the hold (a response's close, a socket's close). Keys at zero are forgotten: the map
 * holds only the clients holding something now.
 */
export class PerKeyLimit {
  private readonly held = new Map<string, number>();

  constructor(readonly cap: number) {}

  take(key: string): (() => void) | null {
    const count = this.held.get(key) ?? 0;
    if (count >= this.cap) return null;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
