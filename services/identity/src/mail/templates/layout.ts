import { escapeHtml } from '../escape';

/**
 * The frame every mail shares. `layoutText` takes plain text; `layoutHtml` takes the greeting and paragraphs as
 * HTML fragments the renderer has already escaped, and escapes every other field itself.
 */
export interface Page {
  /** BCP 47 tag of the language. */
  lang: string;
  subject: string;
  greeting: string;
  paragraphs: readonly string[];
  button: string;
  /** Checked http(s) link. */
  url: string;
  linkHint: string;
  footer: string;
}

const FONT = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const TEXT = 'margin:0 0 16px;';
const BUTTON =
  'display:inline-block;padding:12px 24px;background-color:#1d4ed8;color:#ffffff;text-decoration:none;' +
  'border-radius:6px;font-weight:600;';
const TABLE = 'role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0"';

export function layoutHtml(page: Page): string {
  const href = escapeHtml(page.url);
  const paragraphs = page.paragraphs.map((p) => `<p style="${TEXT}">${p}</p>`).join('\n');
  return `<!doctype html>
<html lang="${escapeHtml(page.lang)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(page.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table ${TABLE} style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table ${TABLE} style="max-width:560px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:32px;font-family:${FONT};font-size:16px;line-height:1.5;color:#18181b;">
<p style="${TEXT}">${page.greeting}</p>
${paragraphs}
<p style="margin:24px 0;"><a href="${href}" style="${BUTTON}">${escapeHtml(page.button)}</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#3f3f46;">${escapeHtml(page.linkHint)}</p>
<p style="margin:0 0 24px;font-size:14px;word-break:break-all;"><a href="${href}" style="color:#1d4ed8;">${href}</a></p>
<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0 16px;">
<p style="margin:0;font-size:12px;color:#52525b;">${escapeHtml(page.footer)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

export function layoutText(page: Page): string {
  const blocks = [page.greeting, ...page.paragraphs, `${page.button}:\n${page.url}`, `-- \n${page.footer}`];
  return `${blocks.join('\n\n')}\n`;
}
