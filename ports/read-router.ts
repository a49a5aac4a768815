/**
 * Where a request's reads go when the database has a read replica (DATABASE_READ_URL). The HTTP
 * adapter wraps each API request in `run`: a safe request (GET, HEAD) may read from the replica
 * unless its client wrote within the read-your-writes window; anything else reads and writes
 * the primary, and opens that window for its client. Without a replica `run` only runs `work`.
 */
export interface ReadRouter {
  run<T>(request: { safe: boolean; clientKey: string | null }, work: () => Promise<T>): Promise<T>;
}

export const PRIMARY_ONLY: ReadRouter = { run: (_request, work) => work() };
