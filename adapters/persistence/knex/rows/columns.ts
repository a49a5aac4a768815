/** Column conversions shared by every Knex repository (both drivers return 0/1 and numbers). */
export const toMillis = (d: Date): number => d.getTime();
export const toMillisOrNull = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);
export const fromMillis = (v: number | string): Date => new Date(Number(v));
export const fromMillisOrNull = (v: number | string | null): Date | null => (v === null ? null : new Date(Number(v)));
export const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';

/**
 * A LIKE pattern matching `text` anywhere, with `%`, `_` and `!` taken literally. Use it with
 * `ESCAPE '!'`: backslash would be read differently by MySQL and SQLite string literals.
 */
export function likeContains(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => '!' + c)}%`;
}
