import type { Adhesion, AdhesionStatus } from '../../../internal/direct-debit/adhesion';
import { ConflictError } from '../../../internal/shared/errors';
import type { AdhesionRepository, AdhesionView, NewAdhesion } from '../../../ports/adhesion-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryAdhesionRepository implements AdhesionRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): Adhesion[] {
    return this.store.tables.adhesions;
  }

  async insert(adhesion: NewAdhesion): Promise<Adhesion> {
    if (this.row(adhesion.companyId, adhesion.externalClientId, adhesion.productId)) throw new ConflictError('Adhesion already exists');
    const stored = { ...copy(adhesion), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async find(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null> {
    const row = this.row(companyId, externalClientId, productId);
    return row ? this.view(row) : null;
  }

  lock(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null> {
    // Memory units of work run one at a time: reading inside one is already exclusive.
    return this.find(companyId, externalClientId, productId);
  }

  async setStatus(companyId: number, id: number, status: AdhesionStatus, at: Date): Promise<AdhesionView> {
    const row = this.rows.find((a) => a.companyId === companyId && a.id === id);
    if (!row) throw new Error(`adhesion ${id} vanished`);
    row.status = status;
    row.updatedAt = at;
    return this.view(row);
  }

  private row(companyId: number, externalClientId: string, productId: number): Adhesion | undefined {
    return this.rows.find((a) => a.companyId === companyId && a.externalClientId === externalClientId && a.productId === productId);
  }

  private view(adhesion: Adhesion): AdhesionView {
    const product = this.store.tables.products.find((p) => p.id === adhesion.productId)!;
    return copy({ ...adhesion, product: { id: product.id, name: product.name, active: product.active } });
  }
}
