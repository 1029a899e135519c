/**
 * How both SQL stores refuse a write (a limit, a quota, a lost claim): the write throws the
 * answer where it finds the reason, inside the transaction (PostgreSQL, postgres/transaction.ts) or
 * the savepoint (SQLite, sqlite/writer.ts) it runs in, so whatever it wrote before rolls back with
 * it. That runner catches the Refusal after the rollback and resolves the write with `answer`: a
 * write never undoes its own steps by hand, and its steps may come in the order that reads best.
 */
export class Refusal<A = unknown> extends Error {
  override name = 'Refusal';
  constructor(readonly answer: A) {
    super(`refused: ${String(answer)}`);
  }
}

/** Ends the write with `answer`, rolling back what it wrote (the write's result type must include it). */
export function refuse<A>(answer: A): never {
  throw new Refusal(answer);
}
