/** What an adhesion request asks the workers to do: enroll the user in the product, then debit. */
export interface AdhesionRequest {
  companyId: number;
  externalClientId: string;
  productId: number;
  paymentMethodId: number;
}
