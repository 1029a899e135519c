/**
 * A typed event surface: each module of the folder page's state says which events it emits and
 * what they carry, and a view subscribes to exactly those (`on` returns the unsubscribe function).
 */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof Events>(type: K, listener: (value: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  protected emit<K extends keyof Events>(type: K, value: Events[K]): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (v: Events[K]) => void)(value);
  }
}
