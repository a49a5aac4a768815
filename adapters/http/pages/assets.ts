import crypto from 'node:crypto';

/**
 * The hosted pages' only style sheet and script, served from this process (the CSP allows
 * nothing else: no inline style or script). The pages work without the script; it only hides
 * fields that do not apply, focuses the error summary, stops a double submit, shows the copy
 * buttons of payment instructions and, while one waits for its money, reloads the page when its
 * status changes.
 */
export const PORTAL_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5;color:#1a1a1a;background:#f4f6f8}
.wrap{max-width:40rem;margin:0 auto;padding:0 1rem}
.skip-link{position:absolute;left:-999px;top:0;background:#fff;color:#0b3d91;padding:.5rem 1rem;z-index:10}
.skip-link:focus{left:0}
.site-header{background:#0b3d91;color:#fff;padding:.75rem 0}
.site-header .wrap{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
.brand{font-weight:700;font-size:1.125rem;margin:0}
.secure{margin:0;font-size:.9rem}
main.wrap{display:block;padding:1.5rem 1rem 2rem;background:#fff;margin-top:1rem;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
main:focus{outline:none}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .75rem}
dl.summary{display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.35rem 1rem;margin:0 0 1.25rem}
dl.summary dt{font-weight:600;color:#3c4043}
dl.summary dd{margin:0;overflow-wrap:anywhere}
.amount-due{font-size:1.25rem;font-weight:700}
.notice{border-left:.35rem solid #0b57d0;background:#e8f0fe;padding:.75rem 1rem;margin:1rem 0;border-radius:.25rem}
.notice.done{border-color:#146c2e;background:#e6f4ea}
.notice.stop{border-color:#8c4a00;background:#fff4e5}
.notice.waiting{border-color:#0b57d0;background:#e8f0fe}
.notice h2{margin-top:0}
.error-summary{border:.2rem solid #b3261e;padding:.75rem 1rem;margin:0 0 1.25rem;border-radius:.25rem}
.error-summary:focus{outline:3px solid #1a1a1a;outline-offset:2px}
.error-summary h2{color:#b3261e;margin-top:0}
.field-error{color:#b3261e;font-weight:600;margin:.25rem 0}
fieldset{border:1px solid #c4c7c5;border-radius:.375rem;margin:0 0 1.25rem;padding:.75rem 1rem 1rem}
legend{font-weight:700;padding:0 .25rem}
.choice{display:flex;align-items:flex-start;gap:.5rem;margin:.5rem 0}
.choice input{width:1.25rem;height:1.25rem;margin-top:.15rem;flex:none}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.choice label{font-weight:400;margin:0}
.choice .hint{margin:.1rem 0 0;font-size:.9rem}
.hint{color:#4a4f54;font-size:.95rem;margin:.1rem 0 .35rem}
input[type=text],input[type=number],select{font:inherit;width:100%;max-width:22rem;padding:.6rem .65rem;border:2px solid #5f6368;border-radius:.25rem;background:#fff;color:#1a1a1a}
input[aria-invalid=true]{border-color:#b3261e}
button,.button{display:inline-block;font:inherit;font-weight:700;background:#0b57d0;color:#fff;border:0;border-radius:.375rem;padding:.8rem 1.5rem;cursor:pointer;text-decoration:none;min-height:2.75rem}
button:hover,.button:hover{background:#0842a0}
button[disabled]{background:#5f6368;cursor:progress}
a{color:#0b57d0}
a:hover{color:#0842a0}
:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
table{border-collapse:collapse;width:100%;margin:0 0 1.25rem;font-size:.95rem}
caption{text-align:left;font-weight:700;margin-bottom:.5rem}
th,td{border-bottom:1px solid #dadce0;padding:.45rem .35rem;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
form:has(input[name=method]:checked:not([value=CARD])) [data-card-fields]{display:none}
dl.copyable dd{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .6rem}
.copy-value{font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
button.copy{font-size:.9rem;font-weight:600;padding:.35rem .75rem;min-height:2.25rem;background:#fff;color:#0b57d0;border:2px solid #0b57d0}
button.copy:hover{background:#e8f0fe;color:#0842a0}
.copied{font-size:.9rem;color:#146c2e;font-weight:600}
figure.barcode{margin:1rem 0;padding:.5rem;background:#fff;border:1px solid #dadce0;border-radius:.375rem;text-align:center}
figure.barcode img{display:block;width:100%;max-width:24rem;height:auto;margin:0 auto}
.button.secondary{background:#fff;color:#0b57d0;border:2px solid #0b57d0}
.button.secondary:hover{background:#e8f0fe;color:#0842a0}
.offscreen{position:absolute;left:-9999px;top:0}
.table-scroll{overflow-x:auto}
ul.plain{list-style:none;padding:0;margin:0 0 1rem}
ul.plain li{padding:.6rem 0;border-bottom:1px solid #dadce0}
.site-footer{color:#3c4043;font-size:.9rem;padding:1rem 0 2rem}
[hidden]{display:none !important}
@media (max-width:30rem){dl.summary{grid-template-columns:1fr}dl.summary dd{margin-bottom:.4rem}main{border-radius:0;margin-top:0}h1{font-size:1.3rem}button{width:100%}button.copy{width:auto}.cycles .wide{display:none}table.cycles{font-size:.9rem}}
@media (prefers-reduced-motion:reduce){*{transition:none !important;animation:none !important}}
`.trim();

export const PORTAL_JS = `
(function () {
  'use strict';
  function toggle(form) {
    var method = form.querySelector('input[name=method]:checked');
    var card = form.querySelector('[data-card-fields]');
    if (card) card.hidden = !!form.querySelector('input[name=method]') && !(method && method.value === 'CARD');
    var type = form.querySelector('input[name=type]:checked');
    var account = form.querySelector('[data-account-fields]');
    var enrollCard = form.querySelector('[data-enroll-card-fields]');
    if (account && type) account.hidden = type.value !== 'BANK_ACCOUNT';
    if (enrollCard && type) enrollCard.hidden = type.value !== 'CARD_TOKENIZED';
    var other = form.querySelector('input[name=amountChoice][value=partial]');
    var amount = form.querySelector('[data-amount-field]');
    if (amount && other) amount.hidden = !other.checked;
  }
  document.addEventListener('DOMContentLoaded', function () {
    var forms = document.querySelectorAll('form[data-portal-form]');
    Array.prototype.forEach.call(forms, function (form) {
      toggle(form);
      form.addEventListener('change', function () { toggle(form); });
      form.addEventListener('submit', function () {
        var button = form.querySelector('button[type=submit]');
        if (button) { window.setTimeout(function () { button.disabled = true; button.setAttribute('aria-busy', 'true'); }, 0); }
      });
    });
    var summary = document.querySelector('.error-summary');
    if (summary) summary.focus();
    Array.prototype.forEach.call(document.querySelectorAll('button.copy[data-copy]'), copyButton);
    var waiting = document.querySelector('[data-instruction-status=PENDING][data-status-url]');
    if (waiting) watch(waiting.getAttribute('data-status-url'));
  });
  function copyButton(button) {
    button.hidden = false;
    var said = button.nextElementSibling;
    function done() {
      if (!said) return;
      said.textContent = said.getAttribute('data-copied');
      window.setTimeout(function () { said.textContent = ''; }, 3000);
    }
    function fallback(value) {
      var area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.className = 'offscreen';
      document.body.appendChild(area);
      area.select();
      try { if (document.execCommand('copy')) done(); } catch (e) { /* nothing copied: the value stays on screen */ }
      document.body.removeChild(area);
      button.focus();
    }
    button.addEventListener('click', function () {
      var value = button.getAttribute('data-copy');
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(value).then(done, function () { fallback(value); });
      else fallback(value);
    });
  }
  function watch(url) {
    function later() { window.setTimeout(poll, 3000); }
    function poll() {
      window.fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (body) { if (body && body.status !== 'PENDING') window.location.reload(); else later(); }, later);
    }
    later();
  }
})();
`.trim();

export interface Asset {
  type: string;
  body: string;
  etag: string;
}

function asset(type: string, body: string): Asset {
  return { type, body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

/**
 * By file name. A Map, not an object literal: a name taken from the URL must find only these two,
 * never what every object inherits (`constructor`, `__proto__`, `toString`...).
 */
export const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ['portal.css', asset('text/css; charset=utf-8', PORTAL_CSS)],
  ['portal.js', asset('text/javascript; charset=utf-8', PORTAL_JS)],
]);
