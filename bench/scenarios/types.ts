import type { BenchDatabase } from '../lib/environment';
import type { LoadSpec } from '../lib/load';
import type { Options } from '../lib/options';
import type { ListPlan } from '../lib/plans';
import type { Service } from '../lib/processes';
import type { SeedResult } from '../lib/seed';

/** What a scenario can use: the running services, the API's credentials, what earlier scenarios left. */
export interface Context {
  services: Map<string, Service>;
  headers: Record<string, string>;
  runTag: string;
  dataset: Record<string, number>;
  db: BenchDatabase;
  options: Options;
  /** The demo tenant's (only) company. */
  companyCode: string;
  /** The seeded debts table, once a GET /debts scenario asked for it. */
  seed: SeedResult | null;
  lists: ListPlan[];
  /** A contact and a product created through the API for the POST /v2/debts scenarios. */
  debtor: { externalClientId: string; productId: string } | null;
}

/**
 * A scenario is data: which process answers, which baseline it is compared with, and how to
 * build its load (it may read what earlier scenarios created). New endpoints add a file of
 * scenarios beside this one, listed in bench/scenarios/index.ts.
 */
export interface Scenario {
  id: string;
  label: string;
  service: string;
  kind: 'baseline' | 'api';
  baseline?: string;
  /** Connections for this scenario when --connections is not given (default: the run's 32). */
  connections?: number;
  /** Resources one request creates (a batch: 50); the ratio then compares items/s. */
  itemsPerRequest?: number;
  /**
   * Left out of `--quick` (CI's smoke run, held under a minute): a variant of a path another
   * scenario already runs there (the same list at another concurrency, another filter).
   */
  skipInQuick?: boolean;
  /**
   * A baseline only these scenarios are held to (their ids): it runs when one of them does
   * (with `--only`, not for every subset), where the other baselines always run.
   */
  onlyFor?: string[];
  /**
   * The API scenarios whose rows this one reads (a read by id or a list over what a create left):
   * `--only` naming this one runs them too, in their place before it, instead of failing on an
   * empty list or timing an empty page.
   */
  needs?: string[];
  /**
   * The only status code every answer must have (a 207 batch would otherwise pass as 2xx). A 4xx
   * makes a scenario of refused requests: those answers are the ones timed.
   */
  expectStatus?: number;
  load(ctx: Context): Promise<Omit<LoadSpec, 'baseUrl' | 'connections' | 'durationSec' | 'warmupSec'>>;
}
