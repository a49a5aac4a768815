import { eventWriting } from '../../adapters/events/event-renderer';
import { HostedPaymentPortal } from '../../adapters/gateways/hosted-payment-portal';
import { RandomIdGenerator } from '../../adapters/ids/random-id-generator';
import { PageSigner } from '../../adapters/security/page-signer';

/** The event renderer of the repository contract suites, on the base URL the HTTP suites use. */
export function testEventWriting() {
  return eventWriting(new HostedPaymentPortal('http://localhost:3000', new PageSigner('contract-suite-page-secret')), new RandomIdGenerator());
}
