import dns from 'node:dns/promises';
import net from 'node:net';
import type { WebhookUrlPolicy } from '../../ports/webhook-url-policy';
import { hostOf, isPrivateAddress } from './private-address';

/**
 * Every environment: the url's host must resolve, and only to public addresses (no loopback,
 * private network or cloud metadata service; private-address.ts). WEBHOOK_ALLOW_PRIVATE_URLS=true
 * (local development and tests, refused in production) turns the check off, so a local receiver
 * works. The sender checks the address again when it connects, against DNS changes since.
 */
export class NetworkUrlPolicy implements WebhookUrlPolicy {
  constructor(
    private readonly options: { blockPrivateAddresses: boolean },
    private readonly resolve: (host: string) => Promise<string[]> = async (host) => (await dns.lookup(host, { all: true })).map((a) => a.address),
  ) {}

  async check(url: string): Promise<string | null> {
    if (!this.options.blockPrivateAddresses) return null;
    const host = hostOf(new URL(url));
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        return 'host could not be resolved';
      }
    }
    if (addresses.length === 0) return 'host could not be resolved';
    return addresses.some(isPrivateAddress) ? 'must not resolve to a private, loopback or link-local address' : null;
  }
}
