/**
 * @collections-facade/sdk: the official TypeScript client of the Collections Facade API.
 * Runs wherever `fetch` and Web Crypto do (Node.js 20+, browsers, edge runtimes); no dependencies.
 */
export { CollectionsClient, type ApiResponse, type CollectionsClientOptions, type ResponseInfo } from './client.js';
export {
  CollectionsApiError,
  CollectionsError,
  CollectionsNetworkError,
  CollectionsPartialUpdateError,
  CollectionsTimeoutError,
  WebhookSignatureError,
  isErrorCode,
  type ErrorDetail,
  type WebhookSignatureFailure,
} from './errors.js';
export { errorCodes, operationTable } from './generated/operations.js';
export type { SessionTokens } from './session.js';
export type {
  BatchBody,
  BatchItemError,
  BatchResult,
  ErrorCode,
  ListIterators,
  ListNamespaces,
  OperationArgs,
  OperationId,
  OperationMethod,
  OperationMethods,
  OperationTable,
  Page,
  PageItem,
  PageMeta,
  PathParams,
  QueryParams,
  QueryValue,
  RequestBody,
  RequestOptions,
  ResponseData,
  Result,
  SuccessBody,
  WebhookEvent,
} from './types.js';
export { parseSignatureHeader, signWebhook, verifyWebhook, type RawBody, type VerifyWebhookOptions } from './webhooks.js';
/** The generated OpenAPI types (openapi-typescript): `components`, `operations`, `paths`, `webhooks`. */
export type * as openapi from './generated/openapi.js';
