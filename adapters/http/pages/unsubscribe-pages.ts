import type { RouteTable } from '../segment-router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { NotFoundError } from '../../../internal/shared/errors';
import { html } from './html';
import type { PageKit } from './page-kit';

const TEXTS = {
  es: {
    title: 'Cancelar recordatorios',
    confirm: (company: string, channel: string) => `¿Dejar de recibir recordatorios de pago de ${company} por ${channel}?`,
    button: 'Cancelar suscripción',
    doneTitle: 'Suscripción cancelada',
    done: (company: string, channel: string) => `Ya no recibirás recordatorios de pago de ${company} por ${channel}.`,
    badTitle: 'Solicitud no válida',
    bad: 'Usa el botón de la página para cancelar la suscripción.',
  },
  en: {
    title: 'Unsubscribe from reminders',
    confirm: (company: string, channel: string) => `Stop receiving payment reminders from ${company} by ${channel}?`,
    button: 'Unsubscribe',
    doneTitle: 'Unsubscribed',
    done: (company: string, channel: string) => `You will no longer receive payment reminders from ${company} by ${channel}.`,
    badTitle: 'Invalid request',
    bad: 'Use the button on the page to unsubscribe.',
  },
};

/**
 * The one-click unsubscribe of reminder emails (RFC 8058), behind the signed URL the message's
 * `List-Unsubscribe` header carries: GET shows a page with one button (a link scanner that opens
 * it changes nothing); POST with `List-Unsubscribe=One-Click` (what mail clients send, urlencoded
 * or multipart, without cookies: the signed URL is the credential) turns the channel off.
 */
export function unsubscribePages(router: RouteTable, kit: PageKit): void {
  const { app, portal, page, send } = kit;
  const renderContext = (ctx: Context) => kit.renderContext(ctx, null);

  const resolve = async (ctx: Context) => {
    const target = portal.openUnsubscribe(ctx.params.token!);
    const found = target && (await app.commands.unsubscribeContact.find(target));
    if (!target || !found) throw new NotFoundError('Page');
    return { target, found };
  };

  router.get('/unsubscribe/:token', page(async (ctx) => {
    const { target, found } = await resolve(ctx);
    const r = renderContext(ctx);
    const t = r.locale === 'en-US' ? TEXTS.en : TEXTS.es;
    send(ctx, 200, {
      title: t.title,
      main: html`<h1>${t.title}</h1><p>${t.confirm(found.companyName, target.channel)}</p>
<form method="post" action="${ctx.path}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" class="primary">${t.button}</button></form>`,
    }, r);
  }));

  router.post('/unsubscribe/:token', page(async (ctx) => {
    const { target, found } = await resolve(ctx);
    const r = renderContext(ctx);
    const t = r.locale === 'en-US' ? TEXTS.en : TEXTS.es;
    if (!(await isOneClick(ctx))) return send(ctx, 400, { title: t.badTitle, main: html`<h1>${t.badTitle}</h1><p>${t.bad}</p>` }, r);
    await app.commands.unsubscribeContact.execute(target);
    send(ctx, 200, { title: t.doneTitle, main: html`<h1>${t.doneTitle}</h1><p>${t.done(found.companyName, target.channel)}</p>` }, r);
  }));
}

/** Whether the body says `List-Unsubscribe=One-Click`, urlencoded or as a multipart field (RFC 8058 section 3.2). */
async function isOneClick(ctx: Context): Promise<boolean> {
  const urlencoded = ctx.is('application/x-www-form-urlencoded');
  const multipart = ctx.is('multipart/form-data');
  if (!urlencoded && !multipart) return false;
  const text = await getRawBody(ctx.req, { limit: 16 * 1024, length: ctx.request.length, encoding: 'utf8' });
  if (urlencoded) return new URLSearchParams(text).get('List-Unsubscribe') === 'One-Click';
  return /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/.test(text);
}
