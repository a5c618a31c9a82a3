import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';

const htmlText = (text: unknown): string =>
  String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const page = (title: string, body: string): string =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${htmlText(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all}</style></head><body>${body}</body></html>`;

/**
 * The page for an error the provider cannot send back to the client (an unknown client, a redirect URI it did not
 * register, a broken request): never a redirect, since the client's address is not to be trusted then. The error
 * and its description are the library's (no secret in them), escaped.
 */
export async function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): Promise<void> {
  ctx.type = 'html';
  ctx.body = page(
    'Sign-in request refused',
    `<h1>This sign-in request cannot go on</h1><p>The application that sent you here made a request this service does not accept. Go back to the application and try again; if it happens again, tell its support.</p><p><code>${htmlText(out.error)}</code>${out.error_description ? `: ${htmlText(out.error_description)}` : ''}</p>`,
  );
}

/** The sign-out question of RP-initiated logout: the library's form, with a button to send it. */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const client = ctx.oidc.client;
  const name = client?.clientName ?? client?.clientId;
  ctx.type = 'html';
  ctx.body = page(
    'Sign out',
    `${form}<h1>Sign out${name ? ` of ${htmlText(name)}` : ''}?</h1><p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button> <button type="submit" form="op.logoutForm">Stay signed in</button></p>`,
  );
}

/** After a sign-out that names no page to return to. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.type = 'html';
  ctx.body = page('Signed out', '<h1>You are signed out of the application</h1>');
}
