import type { IdGenerator } from '../../../ports/id-generator';
import type { AdhesionView } from '../../../ports/adhesion-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import type { Product } from '../../products/product';
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
  constructor(private readonly deps: { uow: UnitOfWork; ids: IdGenerator }) {
    requireDeps('EnrollAdhesion', deps);
  }

  /** The product is read in the grouped transaction, with the group's others (one SELECT for a group). */
  async execute(externalClientId: string, ref: AdhesionProductRef, scope: TenantScope): Promise<EnrollAdhesionResult> {
    let product: Product | undefined;
    try {
      return await this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
        product = await productToEnroll(tx.products, ref, scope);
        return this.enroll(tx, externalClientId, product, scope);
      });
    } catch (error) {
      // A concurrent enrollment created it first: enrolling again finds it.
      if (!(error instanceof ConflictError) || product === undefined) throw error;
      return this.enrollAlone(externalClientId, product, scope);
    }
  }

  /** For callers that already hold the product (the adhesion request job). */
  async enrollProduct(externalClientId: string, product: EnrolledProduct, scope: TenantScope): Promise<EnrollAdhesionResult> {
    try {
      return await this.deps.uow.runGrouped(scope.organizationId, (tx) => this.enroll(tx, externalClientId, product, scope));
    } catch (error) {
      // A concurrent enrollment created it first: enrolling again finds it.
      if (!(error instanceof ConflictError)) throw error;
      return this.enrollAlone(externalClientId, product, scope);
    }
  }

  private enrollAlone(externalClientId: string, product: EnrolledProduct, scope: TenantScope): Promise<EnrollAdhesionResult> {
    return this.deps.uow.run((tx) => this.enroll(tx, externalClientId, product, scope));
  }

  /**
   * The INSERT comes first: the (company, user, product) unique key finds an adhesion that exists,
   * which is then locked and made ACTIVE again if it is not. A new adhesion costs one INSERT, no
   * read, and answers the product the caller holds.
   */
  private async enroll(tx: Repositories, externalClientId: string, product: EnrolledProduct, scope: TenantScope): Promise<EnrollAdhesionResult> {
    const now = scope.clock.now();
    const inserted = await tx.adhesions
      .insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: this.deps.ids.alphanumeric(ADHESION_CODE_LENGTH),
        externalClientId,
        productId: product.id,
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      })
      .catch((error: unknown) => {
        if (error instanceof ConflictError) return null;
        throw error;
      });
    let adhesion: AdhesionView;
    if (inserted) adhesion = { ...inserted, product: { id: product.id, name: product.name, active: product.active } };
    else {
      const existing = await tx.adhesions.lock(scope.company.id, externalClientId, product.id);
      // Not there: the conflict was the random code's; enrollProduct runs again with another.
      if (!existing) throw new ConflictError('Adhesion code taken');
      if (existing.status === 'ACTIVE') return { adhesion: existing, changed: false };
      adhesion = await tx.adhesions.setStatus(scope.company.id, existing.id, 'ACTIVE', now);
    }
    await tx.events.append([eventOf(scope, 'adhesion.created', { kind: 'adhesion', adhesion }, now)]);
    return { adhesion, changed: true };
  }
}

/** What an adhesion's view shows of its product. */
export type EnrolledProduct = Pick<Product, 'id' | 'name' | 'active'>;
