import { html, type SafeHtml } from './html';
import type { Locale } from './locale';
import type { Messages } from './messages';

export interface Document {
  title: string;
  main: SafeHtml;
  /** The creditor the page is about, in the header. */
  company?: string;
}

/** The page shell: language, landmarks, skip link, the one style sheet and script. */
export function layout(doc: Document, locale: Locale, t: Messages, sandbox: boolean): string {
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${doc.title}${doc.company ? ` · ${doc.company}` : ''}</title>
<link rel="stylesheet" href="/assets/portal.css">
<script src="/assets/portal.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">${t.skipToContent}</a>
<header class="site-header"><div class="wrap"><p class="brand">${doc.company ?? t.securePayment}</p><p class="secure">${t.securePayment}</p></div></header>
<main id="main" class="wrap" tabindex="-1">
${doc.main}
</main>
<footer class="site-footer"><div class="wrap">${sandbox ? html`<p>${t.sandboxNotice}</p>` : ''}</div></footer>
</body>
</html>
`.value;
}
