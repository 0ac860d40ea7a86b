/**
 * The one photo e-mail (album share and the attendee app's e-mail share), coloured by the
 * event's `emailSettings` with its e-mail header image (DESIGN §10). A pure function of its
 * input, so the server sends exactly what the colours page previews.
 */
export type PhotoEmailInput = {
  colors: {
    bodyBgColor: string;
    bodyTextColor: string;
    buttonColor: string;
    buttonTextColor: string;
    headerBgColor: string;
    headerTextColor: string;
  };
  /** Absolute URL of the e-mail header image (images.logoUrl), if any. */
  headerImageUrl?: string;
  heading: string;
  /** Plain text; line breaks are kept. */
  body: string;
  button: string;
  /** Absolute photo URLs. */
  photos: string[];
  /** Shown in the header when there is no header image. */
  title: string;
};

const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const color = (c: string, fallback: string) => (HEX.test(c) ? c : fallback);

export function renderPhotoEmail(input: PhotoEmailInput): { html: string; text: string } {
  const c = input.colors;
  const bg = color(c.bodyBgColor, '#f4f6fa');
  const fg = color(c.bodyTextColor, '#1b2430');
  const header = input.headerImageUrl
    ? `<img src="${esc(input.headerImageUrl)}" alt="${esc(input.title)}" width="600" style="display:block;width:100%;max-width:600px;height:auto;border:0">`
    : `<div style="padding:20px 24px;font-size:22px;font-weight:bold;color:${color(c.headerTextColor, '#ffffff')}">${esc(input.title)}</div>`;
  const photos = input.photos
    .map(
      (url) =>
        `<p style="margin:0 0 16px"><img src="${esc(url)}" alt="" width="552" style="display:block;width:100%;height:auto;border-radius:8px"></p>` +
        `<p style="margin:0 0 24px;text-align:center"><a href="${esc(url)}" style="display:inline-block;padding:12px 24px;border-radius:8px;text-decoration:none;font-weight:bold;background:${color(c.buttonColor, '#1c6dd0')};color:${color(c.buttonTextColor, '#ffffff')}">${esc(input.button)}</a></p>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body style="margin:0;padding:0;background:${bg}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${bg}"><tr><td align="center" style="padding:16px">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;font-family:Arial,Helvetica,sans-serif;color:${fg}">` +
    `<tr><td style="background:${color(c.headerBgColor, '#0b1f3a')}" data-part="header">${header}</td></tr>` +
    `<tr><td style="padding:24px">` +
    `<h1 style="margin:0 0 12px;font-size:22px;color:${fg}">${esc(input.heading)}</h1>` +
    `<p style="margin:0 0 20px;font-size:16px;line-height:1.5;color:${fg}">${esc(input.body).replace(/\n/g, '<br>')}</p>` +
    photos +
    `</td></tr></table></td></tr></table></body></html>`;
  const text = `${input.heading}\n\n${input.body}\n\n${input.photos.join('\n')}\n`;
  return { html, text };
}
