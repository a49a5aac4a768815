import type { Scenario } from '../scenarios/types';

/**
 * The scenarios a run measures, in their order: all of them, or those `only` names (by id prefix)
 * and what they need (Scenario.needs: the create whose rows a read reads back), with the baselines
 * they are held to. A quick run leaves out the variants marked skipInQuick.
 */
export function selectScenarios(all: Scenario[], only: string[] | null, quick: boolean): Scenario[] {
  const named = (id: string) => isNamed(only, id);
  const needed = new Set(all.filter((s) => s.kind !== 'baseline' && named(s.id)).flatMap((s) => s.needs ?? []));
  const selected = (id: string) => named(id) || needed.has(id);
  const wanted = (s: Scenario) => (s.kind !== 'baseline' ? selected(s.id) : !s.onlyFor || all.some((o) => o.kind !== 'baseline' && selected(o.id) && s.onlyFor!.includes(o.id)));
  return all.filter((s) => !(quick && s.skipInQuick) && wanted(s));
}

/** Whether `only` (`--only`'s ids, prefixes of them; null: everything) names the scenario or phase `id`. */
export function isNamed(only: string[] | null, id: string): boolean {
  return only === null || only.some((prefix) => id.startsWith(prefix));
}
