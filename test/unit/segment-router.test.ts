import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { firstSegment, SegmentRouter } from '../../adapters/http/segment-router';

/** The router answers as one @koa/router holding every route would (adapters/http/segment-router.ts). */
describe('SegmentRouter', () => {
  function app(build: (router: SegmentRouter) => void): Koa {
    const router = new SegmentRouter();
    build(router);
    const koa = new Koa();
    koa.use(router.routes());
    koa.use((ctx) => {
      ctx.status = 404;
      ctx.body = 'no route';
    });
    return koa;
  }
  const name = (label: string) => (ctx: Koa.Context) => {
    ctx.body = { label, params: ctx.params, route: (ctx as Koa.Context & { _matchedRoute?: string })._matchedRoute };
  };

  it('finds a route by its first segment, with its params and route pattern, case-insensitive and with a trailing slash as @koa/router does', async () => {
    const koa = app((r) => {
      r.get('/contacts', name('list'));
      r.get('/contacts/:id', name('one'));
      r.post('/contacts', name('create'));
      r.get('/debts/:id', name('debt'));
    });
    const server = koa.callback();
    expect((await request(server).get('/contacts/ctc_1')).body).to.deep.equal({ label: 'one', params: { id: 'ctc_1' }, route: '/contacts/:id' });
    expect((await request(server).get('/CONTACTS')).body.label).to.equal('list');
    expect((await request(server).get('/contacts/')).body.label).to.equal('list');
    expect((await request(server).post('/contacts')).body.label).to.equal('create');
    expect((await request(server).get('/debts/deb_1')).body.label).to.equal('debt');
    expect((await request(server).delete('/contacts/ctc_1')).text).to.equal('no route');
    expect((await request(server).get('/contactsx')).text).to.equal('no route');
    expect((await request(server).get('/')).text).to.equal('no route');
  });

  it('tries the routes whose first segment is a pattern after the literal ones, in the order they were added', async () => {
    const koa = app((r) => {
      r.get('/:anything/first', name('pattern-first'));
      r.get('/pay/first', name('literal'));
      r.all('/pay/*rest', name('pay-rest'));
      r.get('/:anything/second', name('pattern-second'));
    });
    const server = koa.callback();
    expect((await request(server).get('/pay/first')).body.label).to.equal('literal');
    expect((await request(server).get('/pay/other')).body.label).to.equal('pay-rest');
    expect((await request(server).get('/else/first')).body.label).to.equal('pattern-first');
    expect((await request(server).get('/else/second')).body.label).to.equal('pattern-second');
    expect((await request(server).get('/else/third')).text).to.equal('no route');
  });

  it("carries every route's layer as router.stack, as @koa/router's middleware does", () => {
    const router = new SegmentRouter();
    router.get('/contacts/:id', name('one'));
    router.post('/pay/:code', name('pay'));
    router.get('/:anything/x', name('any'));
    const stack = router.routes().router.stack.map((layer) => `${layer.methods.join(',')} ${layer.path}`);
    expect(stack).to.deep.equal(['HEAD,GET /contacts/:id', 'POST /pay/:code', 'HEAD,GET /:anything/x']);
  });

  it('reads the first segment of a path', () => {
    expect(firstSegment('/contacts/ctc_1')).to.equal('contacts');
    expect(firstSegment('/contacts')).to.equal('contacts');
    expect(firstSegment('/')).to.equal('');
  });
});
