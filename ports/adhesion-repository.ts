import type { Adhesion, AdhesionStatus } from '../internal/direct-debit/adhesion';

export type NewAdhesion = Omit<Adhesion, 'id'>;

/** An adhesion as read: with what its embedded product shows. */
export interface AdhesionView extends Adhesion {
  product: { id: number; name: string; active: boolean };
}

/** One adhesion per user (externalClientId) and product within a company. */
export interface AdhesionRepository {
  /**
   * The adhesion as written (its view is the caller's: it holds the product). In a transaction,
   * a conflict leaves the transaction usable (EnrollAdhesion then locks the adhesion there).
   * @throws ConflictError when the user already has an adhesion to the product.
   */
  insert(adhesion: NewAdhesion): Promise<Adhesion>;
  find(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null>;
  /** Reads the adhesion and locks it until the transaction ends. */
  lock(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null>;
  setStatus(companyId: number, id: number, status: AdhesionStatus, at: Date): Promise<AdhesionView>;
}
