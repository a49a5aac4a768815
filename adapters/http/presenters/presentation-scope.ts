import type { TenantScope } from '../../../internal/shared/tenant-scope';

/**
 * What a presenter needs of the caller's scope: the company (code, portal settings) and the
 * clock the effective status is read on. HTTP answers pass the request's scope; events pass
 * the company and the instant of the change.
 */
export type PresentationScope = Pick<TenantScope, 'company' | 'clock'>;
