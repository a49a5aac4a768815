import type { Product } from '../../../internal/products/product';
import { ConflictError } from '../../../internal/shared/errors';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { NewProduct, ProductFilter, ProductRepository } from '../../../ports/product-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryProductRepository implements ProductRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): Product[] {
    return this.store.tables.products;
  }

  async insert(product: NewProduct): Promise<Product> {
    const clash = this.rows.some(
      (p) =>
        p.companyId === product.companyId &&
        (p.name === product.name || (product.externalProductId !== null && p.externalProductId === product.externalProductId)),
    );
    if (clash) throw new ConflictError('Product already exists');
    const stored: Product = { ...copy(product), id: this.store.nextId(), updatedAt: product.createdAt };
    this.rows.push(stored);
    return copy(stored);
  }

  async findById(companyId: number, id: number): Promise<Product | null> {
    return copy(this.rows.find((p) => p.companyId === companyId && p.id === id) ?? null);
  }

  async findByName(companyId: number, name: string): Promise<Product | null> {
    return copy(this.rows.find((p) => p.companyId === companyId && p.name === name) ?? null);
  }

  async findByIds(companyId: number, ids: number[]): Promise<Product[]> {
    const wanted = new Set(ids);
    return copy(this.rows.filter((p) => p.companyId === companyId && wanted.has(p.id)));
  }

  async findByExternalProductIds(companyId: number, externalProductIds: string[]): Promise<Product[]> {
    const wanted = new Set(externalProductIds);
    return copy(this.rows.filter((p) => p.companyId === companyId && p.externalProductId !== null && wanted.has(p.externalProductId)));
  }

  async findByNames(companyId: number, names: string[]): Promise<Product[]> {
    const wanted = new Set(names);
    return copy(this.rows.filter((p) => p.companyId === companyId && wanted.has(p.name)));
  }

  async findByExternalProductId(companyId: number, externalProductId: string): Promise<Product | null> {
    return copy(this.rows.find((p) => p.companyId === companyId && p.externalProductId === externalProductId) ?? null);
  }

  async findNameAndKeyHolders(companyId: number, name: string, externalProductId: string | null): Promise<{ byName: Product | null; byExternalProductId: Product | null }> {
    return {
      byName: await this.findByName(companyId, name),
      byExternalProductId: externalProductId === null ? null : await this.findByExternalProductId(companyId, externalProductId),
    };
  }

  async rename(companyId: number, id: number, name: string): Promise<Product> {
    if (this.rows.some((p) => p.companyId === companyId && p.name === name && p.id !== id)) {
      throw new ConflictError('Product name already exists');
    }
    const row = this.rows.find((p) => p.companyId === companyId && p.id === id)!;
    row.name = name;
    return copy(row);
  }

  async deactivate(companyId: number, id: number): Promise<boolean> {
    const row = this.rows.find((p) => p.companyId === companyId && p.id === id && p.active);
    if (!row) return false;
    row.active = false;
    return true;
  }

  async listActive(companyId: number, filter: ProductFilter, page: PageRequest): Promise<Page<Product>> {
    const matches = this.rows
      .filter((p) => p.companyId === companyId && p.active && (filter.name === undefined || p.name === filter.name))
      .sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return { items: copy(matches.slice(start, start + page.limit)), total: matches.length, capped: false };
  }
}
