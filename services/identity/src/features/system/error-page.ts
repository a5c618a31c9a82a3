const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The /error page (spec §2): shows the code, escaped; it never renders anything else from the request. */
export function renderErrorPage(code: string): string {
  const safe = escapeHtml(code);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in error</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:.1rem .3rem}</style>
</head><body><h1>Something went wrong</h1><p>The request could not be completed.</p><p>Error code: <code id="error-code">${safe}</code></p></body></html>
`;
}
