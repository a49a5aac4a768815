import type { PaymentLinkRepository, PaymentLinkView } from '../../ports/payment-link-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { paymentLinkCodeFromId } from './payment-link';

/** A link of the caller's company by `plk_<code>` or the bare code; 404 otherwise. */
export async function findLink(
  links: Pick<PaymentLinkRepository, 'findByCode' | 'lockByCode'>,
  id: string,
  scope: TenantScope,
  options: { lock?: boolean } = {},
): Promise<PaymentLinkView> {
  const code = paymentLinkCodeFromId(id);
  const link = code === null ? null : options.lock ? await links.lockByCode(scope.company.id, code) : await links.findByCode(scope.company.id, code);
  if (!link) throw new NotFoundError('Payment link');
  return link;
}
