import type { Knex } from 'knex';
import type { Product } from '../../../internal/products/product';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { NewProduct, ProductFilter, ProductRepository } from '../../../ports/product-repository';
import { sqlDialect } from './dialect';
import { endsInSpace, insertedIdOrConflict, lookUp, withoutTrailingSpaces } from './shared-transaction';
import { translatingDuplicates } from './driver-errors';
import { ownRowsByKey } from './read-batches';
import { bool, fromMillisOrNull, toMillisOrNull } from './rows/columns';

interface ProductRow {
  id: number;
  organization_id: number;
  company_id: number;
  name: string;
  external_product_id: string | null;
  active: number | boolean;
  created_at: number | null;
  updated_at: number | null;
}

export class KnexProductRepository implements ProductRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(product: NewProduct): Promise<Product> {
    const row = {
      organization_id: product.organizationId,
      company_id: product.companyId,
      name: product.name,
      external_product_id: product.externalProductId,
      active: product.active,
      created_at: toMillisOrNull(product.createdAt),
      updated_at: toMillisOrNull(product.createdAt),
    };
    const id = await insertedIdOrConflict(this.db, 'Product', 'products', row);
    return toProduct({ ...row, id: id!, active: product.active ? 1 : 0 });
  }

  async findById(companyId: number, id: number): Promise<Product | null> {
    if (!this.holdsId(id)) return null;
    // With the reads of the same moment, or of the shared transaction (lookUp).
    return lookUp(this.db, `products of ${companyId} by id`, String(id), async (ids, db) => {
      // By the primary key alone, then the company's (read-batches.ts: "Plans").
      return ownRowsByKey(await db<ProductRow>('products').whereIn('id', ids.map(Number)), 'company_id', companyId, 'id', toProduct);
    });
  }

  async findByName(companyId: number, name: string): Promise<Product | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp).
    if (!endsInSpace(name)) {
      return lookUp(this.db, `products of ${companyId}`, name, async (names, db) => {
        const found = await new KnexProductRepository(db).findByNames(companyId, names);
        return new Map(found.map((product) => [withoutTrailingSpaces(product.name), product]));
      });
    }
    return this.first({ company_id: companyId, name });
  }

  async findByIds(companyId: number, ids: number[]): Promise<Product[]> {
    const storable = ids.filter((id) => this.holdsId(id));
    if (storable.length === 0) return [];
    return (await this.db<ProductRow>('products').where('company_id', companyId).whereIn('id', storable)).map(toProduct);
  }

  /** A product number a client sent may be beyond any id the table can hold: it names no product. */
  private holdsId(id: number): boolean {
    return id <= sqlDialect(this.db).maxRowId;
  }

  async findByExternalProductIds(companyId: number, externalProductIds: string[]): Promise<Product[]> {
    if (externalProductIds.length === 0) return [];
    const rows = await this.db<ProductRow>('products').where('company_id', companyId).whereIn('external_product_id', externalProductIds);
    return rows.map(toProduct);
  }

  async findByNames(companyId: number, names: string[]): Promise<Product[]> {
    if (names.length === 0) return [];
    return (await this.db<ProductRow>('products').where('company_id', companyId).whereIn('name', names)).map(toProduct);
  }

  async findByExternalProductId(companyId: number, externalProductId: string): Promise<Product | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp).
    if (!endsInSpace(externalProductId)) {
      return lookUp(this.db, `products of ${companyId} by externalProductId`, externalProductId, async (keys, db) => {
        const found = await new KnexProductRepository(db).findByExternalProductIds(companyId, keys);
        return new Map(found.map((product) => [withoutTrailingSpaces(product.externalProductId!), product]));
      });
    }
    return this.first({ company_id: companyId, external_product_id: externalProductId });
  }

  async findNameAndKeyHolders(companyId: number, name: string, externalProductId: string | null): Promise<{ byName: Product | null; byExternalProductId: Product | null }> {
    const rows = await this.db<ProductRow>('products')
      .where('company_id', companyId)
      .where((q) => {
        q.where('name', name);
        if (externalProductId !== null) q.orWhere('external_product_id', externalProductId);
      });
    const products = rows.map(toProduct);
    return {
      byName: products.find((p) => p.name === name) ?? null,
      byExternalProductId: externalProductId === null ? null : (products.find((p) => p.externalProductId === externalProductId) ?? null),
    };
  }

  async rename(companyId: number, id: number, name: string): Promise<Product> {
    await translatingDuplicates(this.db, 'Product name', (db) =>
      db('products').where({ company_id: companyId, id }).update({ name }),
    );
    return (await this.findById(companyId, id))!;
  }

  async deactivate(companyId: number, id: number): Promise<boolean> {
    const changed = await this.db('products').where({ company_id: companyId, id, active: true }).update({ active: false });
    return changed === 1;
  }

  async listActive(companyId: number, filter: ProductFilter, page: PageRequest): Promise<Page<Product>> {
    const query = this.db<ProductRow>('products').where({ company_id: companyId, active: true });
    if (filter.name !== undefined) query.where('name', filter.name);
    const [rows, [count]] = await Promise.all([
      query.clone().select('*').orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)),
      query.clone().count<{ n: number }[]>({ n: '*' }),
    ]);
    return { items: rows.map(toProduct), total: Number(count?.n ?? 0), capped: false };
  }

  private async first(where: Partial<ProductRow>): Promise<Product | null> {
    const row = await this.db<ProductRow>('products').where(where).first();
    return row ? toProduct(row) : null;
  }
}

function toProduct(row: ProductRow): Product {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    name: row.name,
    externalProductId: row.external_product_id,
    active: bool(row.active),
    createdAt: fromMillisOrNull(row.created_at),
    updatedAt: fromMillisOrNull(row.updated_at),
  };
}
