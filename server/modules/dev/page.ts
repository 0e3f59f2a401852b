/**
 * The development stand-ins' pages, and the identity providers' sign-in page:
 * one form, a name and an id to sign in as, so a developer or a browser test
 * can be any user of the provider. They are third parties' pages, so they
 * speak English only.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml as escape } from '../../services/html.ts';

export interface SignInPage {
  provider: string;
  /** The id field: its label and the id to suggest. */
  idLabel: string;
  id: string;
  name: string;
  /** Fields the form carries back unchanged (the request being answered). */
  hidden: Record<string, string>;
}

const style = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f4f5f7;color:#1b1d21}
main{max-width:26rem;margin:0 auto;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:0 0 1rem;color:#4a4f57}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem .75rem;border:1px solid #8a9099;border-radius:.5rem}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:.5rem;border:1px solid #1f5fd1;cursor:pointer}
button[value=allow]{background:#1f5fd1;color:#fff}button[value=deny]{background:#fff;color:#1f5fd1}`;

/** Sends a development stand-in's page (English only: it is a third party's), with a policy that lets its own style in and nothing else. */
export function sendDevPage(reply: FastifyReply, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${style}</style></head><body><main>${body}</main></body></html>`;
  return reply
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .type('text/html; charset=utf-8')
    .send(html);
}

export function sendSignInPage(reply: FastifyReply, page: SignInPage): FastifyReply {
  const hidden = Object.entries(page.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  return sendDevPage(
    reply,
    `Sign in with ${page.provider} (development)`,
    `<h1>Sign in with ${escape(page.provider)}</h1>
<p>This is the development stand-in for ${escape(page.provider)}. Choose who to sign in as.</p>
<form method="post">${hidden}
<label for="id">${escape(page.idLabel)}</label><input id="id" name="id" required value="${escape(page.id)}">
<label for="name">Name</label><input id="name" name="name" required value="${escape(page.name)}">
<div class="actions"><button name="decision" value="allow">Sign in</button><button name="decision" value="deny" formnovalidate>Cancel</button></div>
</form>`,
  );
}
