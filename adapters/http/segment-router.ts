import Router, { type RouterContext, type RouterInstance, type RouterMiddleware } from '@koa/router';
import type { Middleware, Next } from 'koa';

type Handler = RouterMiddleware;

/**
 * A router that finds a request's routes by the first segment of its path before it tries any
 * pattern. @koa/router tests every route's regular expression in turn, for every request: with
 * the API's 150 routes and the hosted pages' 30, that was 4.5 % of a GET by id's CPU
 * (docs/performance.md). Here each first segment (`contacts`, `debts`, `l`, …) has a @koa/router
 * of its own, holding only the routes that begin with it; a request runs the one its path names,
 * then, when none of those answered, the routes whose first segment is a parameter or a
 * wildcard, in the order they were added. A route whose first segment is literal can only match
 * a path that begins with that segment, so a request meets the routes one router would have
 * tried, in the order they were added, except that a pattern-first route comes after the literal
 * ones (the API and the hosted pages have none). Segments are compared without case, as
 * @koa/router's default (not case-sensitive) matching does.
 */
export class SegmentRouter {
  private readonly bySegment = new Map<string, RouterInstance>();
  /** Routes whose first segment is a pattern (`/:id`, `/*rest`): tried for every path. */
  private readonly anySegment = new Router();

  get = this.adder('get');
  post = this.adder('post');
  put = this.adder('put');
  patch = this.adder('patch');
  delete = this.adder('delete');
  all = this.adder('all');

  /** `router.<method>(path, ...handlers)`, on the router of the path's first segment. */
  private adder(method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all') {
    return (path: string, ...handlers: Handler[]): this => {
      const router = this.routerOf(path);
      (router[method] as (path: string, ...handlers: Handler[]) => unknown).call(router, path, ...handlers);
      return this;
    };
  }

  /**
   * The middleware: the routes of the path's first segment, then the pattern-first ones. Like
   * @koa/router's, it carries `router.stack`, every route's layer (path and methods), for the
   * tools that read a router's route table (the reliability suite's fuzzing).
   */
  routes(): Middleware & { router: { stack: RouterInstance['stack'] } } {
    const bySegment = new Map([...this.bySegment].map(([segment, router]) => [segment, router.routes()]));
    const any = this.anySegment.routes();
    const middleware: Middleware = (ctx, next: Next) => {
      const routerCtx = ctx as RouterContext;
      const routes = bySegment.get(firstSegment(ctx.path).toLowerCase());
      return routes ? routes(routerCtx, () => any(routerCtx, next)) : any(routerCtx, next);
    };
    const stack = [...[...this.bySegment.values()].flatMap((router) => router.stack), ...this.anySegment.stack];
    return Object.assign(middleware, { router: { stack } });
  }

  private routerOf(path: string): RouterInstance {
    const segment = firstSegment(path);
    if (/[:*?(){}\\]/.test(segment)) return this.anySegment;
    const key = segment.toLowerCase();
    let router = this.bySegment.get(key);
    if (!router) {
      router = new Router();
      this.bySegment.set(key, router);
    }
    return router;
  }
}

/** `contacts` of `/contacts/ctc_1`; the empty string for `/`. */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/** What a module that adds routes needs of the router. */
export type RouteTable = Pick<SegmentRouter, 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all'>;
