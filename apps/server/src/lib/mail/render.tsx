// A mail's content drawn twice: as branded HTML (React Email) and as the plain-text part, for
// clients that show no HTML and for people who read mail as text. Both carry the action's link.
import type { Locale } from '@leadrelay/shared';
import { render } from '@react-email/render';
import { t } from './i18n';
import { type LayoutText, type MailContent, MailLayout } from './layout';
import type { MailMessage } from './mailer';

export type Template = Omit<MailMessage, 'to'>;

/** Who a mail is drawn for: the recipient's language and the product's address (PUBLIC_URL). */
export interface MailContext {
  lang: Locale;
  publicUrl: string;
}

export async function renderMail(ctx: MailContext, content: MailContent): Promise<Template> {
  const layout: LayoutText = {
    buttonFallback: t(ctx.lang, 'layout.buttonFallback'),
    detailLabel: t(ctx.lang, 'layout.detailLabel'),
    product: t(ctx.lang, 'layout.product'),
  };
  const html = await render(<MailLayout lang={ctx.lang} publicUrl={ctx.publicUrl} content={content} layout={layout} />);
  return { subject: content.subject, html, text: plainText(ctx, content, layout), link: content.action.url };
}

/** The text part: the same words, each link on a line of its own so any client makes it clickable. */
function plainText(ctx: MailContext, content: MailContent, layout: LayoutText): string {
  return [
    content.heading,
    ...content.paragraphs.slice(0, 1),
    ...(content.detail ? [`${layout.detailLabel}: ${content.detail}`] : []),
    ...content.paragraphs.slice(1),
    `${content.action.label}:\n${content.action.url}`,
    `--\n${content.why}`,
    `${layout.product}\n${ctx.publicUrl}`,
  ].join('\n\n');
}
