// The one look every mail shares: the LeadRelay wordmark, a heading, the message, one button (with
// its link written out for clients that block buttons) and a footer saying why it came. React
// Email's components draw the table-based, inline-styled HTML mail clients accept; React escapes
// every value, so a name a user typed is shown as text, never read as markup.
import type { Locale } from '@leadrelay/shared';
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { type CSSProperties, Fragment } from 'react';

/** The web app's antd theme (apps/web/src/app/theme.tsx): primary colour, ink, page background. */
const PRIMARY = '#4f46e5';
const INK = '#111827';
const MUTED = '#6b7280';
const PAGE = '#f5f6fa';
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";

/** What one mail says, already in the recipient's language. */
export interface MailContent {
  subject: string;
  /** The line mail clients show after the subject in the inbox. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** Another service's own words (an error it answered), quoted under a label after the first paragraph. */
  detail?: string;
  action: { label: string; url: string };
  /** Why the recipient got this mail. */
  why: string;
}

export interface LayoutText {
  buttonFallback: string;
  detailLabel: string;
  product: string;
}

interface Props {
  lang: Locale;
  publicUrl: string;
  content: MailContent;
  layout: LayoutText;
}

export function MailLayout({ lang, publicUrl, content, layout }: Props) {
  const { action } = content;
  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
        <title>{content.subject}</title>
      </Head>
      <Preview>{content.preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Section style={styles.brand}>
            <Wordmark />
          </Section>
          <Section style={styles.card}>
            <Heading as="h1" style={styles.heading}>
              {content.heading}
            </Heading>
            {content.paragraphs.map((paragraph, index) => (
              <Fragment key={paragraph}>
                <Text style={styles.text}>{paragraph}</Text>
                {index === 0 && content.detail ? (
                  <Section style={styles.detail}>
                    <Text style={styles.detailLabel}>{layout.detailLabel}</Text>
                    <Text style={styles.detailText}>{content.detail}</Text>
                  </Section>
                ) : null}
              </Fragment>
            ))}
            <Section style={styles.action}>
              <Button href={action.url} style={styles.button}>
                {action.label}
              </Button>
            </Section>
            <Text style={styles.fallback}>{layout.buttonFallback}</Text>
            <Link href={action.url} style={styles.rawLink}>
              {action.url}
            </Link>
          </Section>
          <Section style={styles.footer}>
            <Text style={styles.footerText}>{content.why}</Text>
            <Hr style={styles.rule} />
            <Text style={styles.footerText}>
              {layout.product}
              <br />
              <Link href={publicUrl} style={styles.footerLink}>
                {publicUrl.replace(/^https?:\/\//, '')}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The web app's logo (components/logo.tsx): an "L" on an indigo square beside the name. */
function Wordmark() {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} border={0}>
      <tbody>
        <tr>
          <td style={styles.mark}>L</td>
          <td style={styles.name}>LeadRelay</td>
        </tr>
      </tbody>
    </table>
  );
}

const styles = {
  body: { backgroundColor: PAGE, margin: 0, padding: '24px 0', fontFamily: FONT, color: INK },
  container: { maxWidth: '560px', width: '100%', margin: '0 auto', padding: '0 12px' },
  brand: { padding: '0 24px 16px' },
  mark: {
    width: '32px',
    height: '32px',
    borderRadius: '8px',
    backgroundColor: PRIMARY,
    color: '#ffffff',
    fontFamily: FONT,
    fontSize: '18px',
    fontWeight: 700,
    lineHeight: '32px',
    textAlign: 'center',
  },
  name: { paddingLeft: '10px', fontFamily: FONT, fontSize: '18px', fontWeight: 700, color: INK },
  card: {
    backgroundColor: '#ffffff',
    borderRadius: '8px',
    border: '1px solid #e5e7eb',
    padding: '32px 24px',
  },
  heading: { margin: '0 0 16px', fontSize: '22px', lineHeight: '30px', fontWeight: 700, color: INK },
  text: { margin: '0 0 16px', fontSize: '16px', lineHeight: '24px', color: INK },
  detail: {
    backgroundColor: '#f9fafb',
    borderLeft: `3px solid ${PRIMARY}`,
    borderRadius: '4px',
    padding: '8px 12px',
    margin: '0 0 16px',
  },
  detailLabel: { margin: 0, fontSize: '12px', lineHeight: '18px', color: MUTED },
  detailText: {
    margin: 0,
    fontFamily: "SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
    fontSize: '14px',
    lineHeight: '20px',
    color: INK,
    wordBreak: 'break-word',
  },
  action: { padding: '8px 0 24px' },
  button: {
    backgroundColor: PRIMARY,
    borderRadius: '8px',
    color: '#ffffff',
    fontSize: '16px',
    fontWeight: 600,
    lineHeight: '24px',
    padding: '12px 24px',
    textDecoration: 'none',
  },
  fallback: { margin: '0 0 4px', fontSize: '13px', lineHeight: '20px', color: MUTED },
  rawLink: { fontSize: '13px', lineHeight: '20px', color: PRIMARY, wordBreak: 'break-all' },
  footer: { padding: '16px 24px 0' },
  footerText: { margin: '0 0 8px', fontSize: '12px', lineHeight: '18px', color: MUTED },
  footerLink: { color: MUTED, textDecoration: 'underline' },
  rule: { borderColor: '#e5e7eb', margin: '8px 0' },
} satisfies Record<string, CSSProperties>;
