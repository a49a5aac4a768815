import type { operations, webhooks } from './generated/openapi.js';
import type { OperationId, OperationTable } from './generated/operations.js';

/**
 * Types derived from the generated files, generically: nothing here names a resource or a field
 * of one. `operations` is openapi-typescript's type of each operation (by operationId),
 * `OperationTable` the generated runtime table.
 */

export type { OperationId, OperationTable } from './generated/operations.js';
export type { ErrorCode } from './generated/operations.js';

type Operation<K extends OperationId> = operations[K];
type JsonOf<T> = T extends { content: { 'application/json': infer C } } ? C : never;
type Defined<T> = Exclude<T, undefined>;

/** The JSON request body of an operation (never when it takes none). */
export type RequestBody<K extends OperationId> = Operation<K> extends { requestBody?: infer R } ? JsonOf<Defined<R>> : never;

/** The query parameters of an operation (never when it has none); companyCode is an option of every call instead. */
export type QueryParams<K extends OperationId> = Operation<K>['parameters'] extends { query?: infer Q } ? Omit<Defined<Q>, 'companyCode'> : never;

/** The path parameters of an operation, by name. */
export type PathParams<K extends OperationId> = Operation<K>['parameters'] extends { path?: infer P } ? Defined<P> : never;

type Responses<K extends OperationId> = Operation<K>['responses'];
type SuccessStatus = 200 | 201 | 202 | 203 | 206 | 207;

/** The union of the JSON bodies of an operation's 2xx answers, as the document describes them. */
export type SuccessBody<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends SuccessStatus ? JsonOf<Responses<K>[S]> : never;
}[keyof Responses<K>];

/** What a call resolves to for an answer `{ data, requestId }`: its `data` (a body without `data`, such as the login's: the body). */
export type ResponseData<K extends OperationId> = SuccessBody<K> extends infer B
  ? B extends { data?: infer D }
    ? Defined<D>
    : Omit<B, 'requestId'>
  : never;

/** One item of a paginated list. */
export type PageItem<K extends OperationId> = SuccessBody<K> extends infer B
  ? B extends { data?: infer D }
    ? Defined<D> extends readonly (infer E)[]
      ? E
      : never
    : never
  : never;

/** The `meta` of a paginated list (`page`, `limit`, `total`, `hasMore`, ...). */
export type PageMeta<K extends OperationId> = SuccessBody<K> extends infer B ? (B extends { meta?: infer M } ? Defined<M> : never) : never;

/** One page of a paginated list. */
export interface Page<K extends OperationId> {
  data: PageItem<K>[];
  meta: PageMeta<K>;
  requestId: string;
}

/** The error of one item of a batch. */
export type BatchItemError<K extends OperationId> = SuccessBody<K> extends infer B ? (B extends { errors?: (infer E)[] } ? E : never) : never;

/** The item type of a batch answer: the element of `data` (or `data` itself). */
type BatchItem<K extends OperationId> = ResponseData<K> extends infer D ? (D extends readonly (infer E)[] ? E : D) : never;

/**
 * A batch answer, whatever its status: 201 (all created), 207 (some failed) or 422 (none
 * created). Batches never throw for these three; check `errors`.
 */
export interface BatchResult<K extends OperationId> {
  status: 201 | 207 | 422;
  data: BatchItem<K>[];
  errors: BatchItemError<K>[];
  batchId: string;
  requestId: string;
}

type Row<K extends OperationId> = OperationTable[K];

/** The body of a batch request (the request body's branch holding the batch property). */
export type BatchBody<K extends OperationId> = Row<K>['batchProperty'] extends infer P extends string
  ? Extract<RequestBody<K>, { [Q in P]: readonly unknown[] }>
  : never;

type SingleData<K extends OperationId> = Exclude<ResponseData<K>, readonly unknown[]>;

/** What a (non-batch) call resolves to: a page for a paginated list, else the answer's `data`. */
export type Result<K extends OperationId> = Row<K>['paginated'] extends true ? Page<K> : ResponseData<K>;

/** A query value as the SDK writes it: arrays repeat the parameter, `undefined` leaves it out. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Per-call options; every one is optional. */
export interface RequestOptions {
  /** The company of the request (clients with several companies); overrides the client's `companyCode`. */
  companyCode?: string;
  /** The `Idempotency-Key` of a create; default: a new `crypto.randomUUID()` per call, the same on each retry. */
  idempotencyKey?: string;
  /** Aborts the call (including its retries and backoff waits). */
  signal?: AbortSignal;
  /** Per-attempt timeout; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra headers of this call. */
  headers?: Record<string, string>;
  /** Extra query parameters of this call (an operation that takes a body and a query). */
  query?: Record<string, QueryValue>;
}

type StringPerItem<T> = T extends readonly [unknown, ...infer Rest] ? [string, ...StringPerItem<Rest>] : [];
/** One string per path parameter, in path order. */
type PathArgs<K extends OperationId> = StringPerItem<Row<K>['pathParams']>;
type OptionalIfEmpty<T> = {} extends T ? [input?: T] : [input: T];
type InputArgs<K extends OperationId> = Row<K>['hasBody'] extends true
  ? OptionalIfEmpty<RequestBody<K>>
  : Row<K>['queryParams'] extends readonly [] ? [] : OptionalIfEmpty<QueryParams<K>>;

/** The arguments of an operation's method: its path parameters in order, then its body or query, then options. */
export type OperationArgs<K extends OperationId> = [...PathArgs<K>, ...InputArgs<K>, options?: RequestOptions];

type BatchMethod<K extends OperationId> = <B extends RequestBody<K>>(
  ...args: [...PathArgs<K>, body: B, options?: RequestOptions]
) => Promise<B extends BatchBody<K> ? BatchResult<K> : SingleData<K>>;

/**
 * The platform login's operations (decisions.md section 2). Without a body they use the client's
 * credentials (login) or its current refresh token (refreshSession); the session they answer
 * becomes the client's.
 */
export type SessionOperationId = Extract<OperationId, 'login' | 'refreshSession'>;

type SessionMethod<K extends OperationId> = (body?: RequestBody<K>, options?: RequestOptions) => Promise<ResponseData<K>>;

/** The method of one operation. */
export type OperationMethod<K extends OperationId> = K extends SessionOperationId
  ? SessionMethod<K>
  : Row<K>['batchProperty'] extends string
    ? BatchMethod<K>
    : (...args: OperationArgs<K>) => Promise<Result<K>>;

/** One method per operation, named after its operationId. */
export type OperationMethods = { [K in OperationId]: OperationMethod<K> };

type PaginatedId = { [K in OperationId]: Row<K>['paginated'] extends true ? K : never }[OperationId];
type ListArgs<K extends OperationId> = [
  ...PathArgs<K>,
  ...(Row<K>['queryParams'] extends readonly [] ? [] : OptionalIfEmpty<QueryParams<K>>),
  options?: RequestOptions,
];

/** The iterators of one paginated list. */
export interface ListIterators<K extends OperationId> {
  /** Every item of every page, fetching the next page when `meta.hasMore`. */
  list(...args: ListArgs<K>): AsyncIterableIterator<PageItem<K>>;
  /** Every page, fetching the next one when `meta.hasMore`. */
  pages(...args: ListArgs<K>): AsyncIterableIterator<Page<K>>;
}

/** A namespace per paginated list (`listDebts` -> `debts`), holding its iterators. */
export type ListNamespaces = {
  [K in PaginatedId as Row<K>['namespace'] & string]: ListIterators<K>;
};

type WebhookPayloads = {
  [E in keyof webhooks]: webhooks[E] extends { post?: infer P } ? (Defined<P> extends { requestBody?: infer R } ? JsonOf<Defined<R>> : never) : never;
}[keyof webhooks];

/** An event as a webhook delivers it: a union over the event types of the document's `webhooks` section. */
export type WebhookEvent = WebhookPayloads;
