import type { Product } from '../internal/products/product';
import type { Page, PageRequest } from '../internal/shared/page';

export interface NewProduct {
  organizationId: number;
  companyId: number;
  name: string;
  externalProductId: string | null;
  active: boolean;
  createdAt: Date | null;
}


export interface ProductFilter {
  /** Exact name. */
  name?: string;
}

export interface ProductRepository {
  /** @throws ConflictError when the company already has the name or the externalProductId. */
  insert(product: NewProduct): Promise<Product>;
  /** Any state: inactive products are returned too, callers decide what is reachable. */
  findById(companyId: number, id: number): Promise<Product | null>;
  findByName(companyId: number, name: string): Promise<Product | null>;
  /** One query for many ids (batches resolve each product once). */
  findByIds(companyId: number, ids: number[]): Promise<Product[]>;
  findByExternalProductIds(companyId: number, externalProductIds: string[]): Promise<Product[]>;
  /** Exact names, any state, in one query (a group of legacy debts reads its products once). */
  findByNames(companyId: number, names: string[]): Promise<Product[]>;
  findByExternalProductId(companyId: number, externalProductId: string): Promise<Product | null>;
  /**
   * findByName and findByExternalProductId in one query (POST /products checks both before it
   * writes): the product holding the name and the one holding the externalProductId (the same
   * product twice, or either null).
   */
  findNameAndKeyHolders(companyId: number, name: string, externalProductId: string | null): Promise<{ byName: Product | null; byExternalProductId: Product | null }>;
  /** @throws ConflictError when the new name is taken by any other product. */
  rename(companyId: number, id: number, name: string): Promise<Product>;
  /** Active to inactive, atomically: false when the product was not active (or not there). */
  deactivate(companyId: number, id: number): Promise<boolean>;
  /** Active products only, by id descending. */
  listActive(companyId: number, filter: ProductFilter, page: PageRequest): Promise<Page<Product>>;
}
