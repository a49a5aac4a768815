import type { IdGenerator } from '../../../ports/id-generator';
import type { AdhesionView } from '../../../ports/adhesion-repository';
import type { ProductRepository } from '../../../ports/product-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { ADHESION_CODE_LENGTH } from '../adhesion';
import { type AdhesionProductRef, productToEnroll } from '../adhesion-product';

export interface EnrollAdhesionResult {
  adhesion: AdhesionView;
  /** False when the user was already enrolled (ACTIVE): nothing changed. */
  changed: boolean;
}

/**
 * POST /adhesions, and the processing of an adhesion request emitted by a new debt: the user is
 * enrolled in the product (created, or an INACTIVE adhesion made ACTIVE again). Enrolling an
 * ACTIVE adhesion again changes nothing. `adhesion.created` reports every move to ACTIVE.
 */
export class EnrollAdhesion {
  constructor(private readonly deps: { uow: UnitOfWork; products: ProductRepository; ids: IdGenerator }) {
    requireDeps('EnrollAdhesion', deps);
  }

  async execute(externalClientId: string, ref: AdhesionProductRef, scope: TenantScope): Promise<EnrollAdhesionResult> {
    const product = await productToEnroll(this.deps.products, ref, scope);
    return this.enrollProduct(externalClientId, product.id, scope);
  }

  /** For callers that already hold the product (the adhesion request job). */
  async enrollProduct(externalClientId: string, productId: number, scope: TenantScope): Promise<EnrollAdhesionResult> {
    try {
      return await this.deps.uow.runGrouped(scope.organizationId, (tx) => this.enroll(tx, externalClientId, productId, scope));
    } catch (error) {
      // A concurrent enrollment created it first: enrolling again finds it.
      if (!(error instanceof ConflictError)) throw error;
      return this.deps.uow.run((tx) => this.enroll(tx, externalClientId, productId, scope));
    }
  }

  private async enroll(tx: Repositories, externalClientId: string, productId: number, scope: TenantScope): Promise<EnrollAdhesionResult> {
    const now = scope.clock.now();
    const existing = await tx.adhesions.lock(scope.company.id, externalClientId, productId);
    if (existing?.status === 'ACTIVE') return { adhesion: existing, changed: false };
    const adhesion = existing
      ? await tx.adhesions.setStatus(scope.company.id, existing.id, 'ACTIVE', now)
      : await tx.adhesions.insert({
          organizationId: scope.organizationId,
          companyId: scope.company.id,
          code: this.deps.ids.alphanumeric(ADHESION_CODE_LENGTH),
          externalClientId,
          productId,
          status: 'ACTIVE',
          createdAt: now,
          updatedAt: now,
        });
    await tx.events.append([eventOf(scope, 'adhesion.created', { kind: 'adhesion', adhesion }, now)]);
    return { adhesion, changed: true };
  }
}
