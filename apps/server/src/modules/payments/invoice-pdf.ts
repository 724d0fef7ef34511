// The invoice as a PDF, in the account's language: seller, buyer, what was bought, what was paid and
// the hryvnia equivalent at the NBU rate of the day. Pure: no database, no network.
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { SellerConfig } from '../../config';

export type { SellerConfig };

export interface InvoicePdfInput {
  number: string;
  /** ISO timestamps. */
  issuedAt: string;
  paidAt: string | null;
  buyer: { name: string; login: string; company: string };
  lines: { title: string; period: string; quantity: number; amountUsd: number }[];
  totalUsd: number;
  /** Taken from the referral balance. */
  creditUsedUsd: number;
  /** Charged to the card. */
  paidUsd: number;
  /** UAH per USD (NBU) on the day of payment; null: no hryvnia equivalent is printed. */
  usdRate: number | null;
  status: 'paid' | 'refunded' | 'issued';
}

export type InvoiceLang = 'uk' | 'en';

// pdfkit's built-in fonts have no Cyrillic: DejaVu Sans comes from the dejavu-fonts-ttf package.
// Resolved at run time from node_modules (the server bundle keeps packages external), so the
// source under Vitest and dist/main.js under `npm start` find the same files.
const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`);
const FONTS = { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') };

const LABELS = {
  uk: {
    invoice: 'Рахунок-фактура №',
    of: 'від',
    seller: 'Продавець',
    buyer: 'Покупець',
    code: 'ЄДРПОУ / ІПН',
    address: 'Адреса',
    iban: 'IBAN',
    bank: 'Банк',
    email: 'Ел. пошта',
    login: 'Логін',
    company: 'Компанія',
    no: '№',
    service: 'Послуга',
    period: 'Період',
    quantity: 'Кількість',
    amount: 'Сума, USD',
    total: 'Разом',
    credit: 'Зараховано з реферального балансу',
    paid: 'Сплачено',
    due: 'До сплати',
    rate: 'Курс НБУ',
    equivalent: 'Еквівалент у гривнях',
    status: 'Статус',
    statuses: { paid: 'Сплачено', refunded: 'Кошти повернуто', issued: 'Очікує оплати' },
    paidAt: 'Дата оплати',
    note: 'Документ сформовано автоматично сервісом LeadRelay.',
  },
  en: {
    invoice: 'Invoice No.',
    of: 'dated',
    seller: 'Seller',
    buyer: 'Buyer',
    code: 'EDRPOU / Tax ID',
    address: 'Address',
    iban: 'IBAN',
    bank: 'Bank',
    email: 'E-mail',
    login: 'Login',
    company: 'Company',
    no: 'No.',
    service: 'Service',
    period: 'Period',
    quantity: 'Quantity',
    amount: 'Amount, USD',
    total: 'Total',
    credit: 'Referral balance credit',
    paid: 'Paid',
    due: 'Amount due',
    rate: 'NBU rate',
    equivalent: 'UAH equivalent',
    status: 'Status',
    statuses: { paid: 'Paid', refunded: 'Refunded', issued: 'Awaiting payment' },
    paidAt: 'Payment date',
    note: 'This document was generated automatically by LeadRelay.',
  },
} as const;

const LOCALE = { uk: 'uk-UA', en: 'en-GB' } as const;
/** The seller's time zone: the invoice's dates, and the year its number counts in. */
export const SELLER_TIME_ZONE = 'Europe/Kyiv';
// Intl puts narrow no-break spaces in Ukrainian numbers; a plain no-break space reads the same.
const tidy = (s: string) => s.replace(/\u202f/g, '\u00a0');

function formats(lang: InvoiceLang) {
  // en-GB would write US$29.00; $29.00 is what an English reader of a dollar invoice expects.
  const usd = new Intl.NumberFormat(LOCALE[lang], {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: lang === 'en' ? 'narrowSymbol' : 'code',
  });
  const uah = new Intl.NumberFormat(LOCALE[lang], { style: 'currency', currency: 'UAH', currencyDisplay: 'code' });
  const rate = new Intl.NumberFormat(LOCALE[lang], { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  const date = new Intl.DateTimeFormat(LOCALE[lang], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: SELLER_TIME_ZONE,
  });
  return {
    usd: (n: number) => tidy(usd.format(n)),
    uah: (n: number) => tidy(uah.format(n)),
    rate: (n: number) => tidy(rate.format(n)),
    date: (iso: string) => tidy(date.format(new Date(iso))),
  };
}

const PAGE = { left: 50, right: 545, width: 495 };
// The table's columns: x, width, alignment.
const COLUMNS = {
  no: { x: 50, width: 25, align: 'left' },
  service: { x: 78, width: 180, align: 'left' },
  period: { x: 262, width: 140, align: 'left' },
  quantity: { x: 404, width: 50, align: 'right' },
  amount: { x: 458, width: 87, align: 'right' },
} as const;

export async function renderInvoicePdf(
  invoice: InvoicePdfInput,
  seller: SellerConfig,
  lang: InvoiceLang,
): Promise<Buffer> {
  const l = LABELS[lang];
  const f = formats(lang);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    lang: LOCALE[lang],
    info: { Title: `${l.invoice} ${invoice.number}`, Author: seller.name, Creator: 'LeadRelay' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);

  // Title and date.
  doc.font('bold').fontSize(18).text(`${l.invoice} ${invoice.number}`, PAGE.left, 50, { width: PAGE.width });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('#555')
    .text(`${l.of} ${f.date(invoice.issuedAt)}`);
  doc.fillColor('#000').moveDown(1.2);

  // Seller and buyer side by side.
  const partiesTop = doc.y;
  const column = (x: number, title: string, rows: [string, string][]) => {
    doc.font('bold').fontSize(11).text(title, x, partiesTop, { width: 235 });
    doc.moveDown(0.2);
    for (const [label, value] of rows) {
      if (!value) continue;
      if (!label) {
        doc.font('regular').fontSize(10).text(value, x, doc.y, { width: 235 });
        continue;
      }
      doc.font('regular').fontSize(9).fillColor('#555').text(`${label}: `, x, doc.y, { width: 235, continued: true });
      doc.fillColor('#000').text(value);
    }
    return doc.y;
  };
  const sellerBottom = column(PAGE.left, l.seller, [
    ['', seller.name],
    [l.code, seller.code],
    [l.address, seller.address],
    [l.iban, seller.iban],
    [l.bank, seller.bank],
    [l.email, seller.email],
  ]);
  const buyerBottom = column(310, l.buyer, [
    ['', invoice.buyer.name],
    [l.company, invoice.buyer.company],
    [l.login, invoice.buyer.login],
  ]);
  doc.y = Math.max(sellerBottom, buyerBottom) + 20;

  // The lines.
  const cell = (text: string, c: (typeof COLUMNS)[keyof typeof COLUMNS], y: number) =>
    doc.text(text, c.x, y, { width: c.width, align: c.align });
  const rule = (y: number) =>
    doc.moveTo(PAGE.left, y).lineTo(PAGE.right, y).lineWidth(0.5).strokeColor('#999').stroke();
  let y = doc.y;
  doc.font('bold').fontSize(9);
  cell(l.no, COLUMNS.no, y);
  cell(l.service, COLUMNS.service, y);
  cell(l.period, COLUMNS.period, y);
  cell(l.quantity, COLUMNS.quantity, y);
  cell(l.amount, COLUMNS.amount, y);
  y = doc.y + 4;
  rule(y);
  doc.font('regular').fontSize(9);
  invoice.lines.forEach((line, i) => {
    const top = y + 5;
    const height = Math.max(
      doc.heightOfString(line.title, { width: COLUMNS.service.width }),
      doc.heightOfString(line.period, { width: COLUMNS.period.width }),
    );
    cell(String(i + 1), COLUMNS.no, top);
    cell(line.title, COLUMNS.service, top);
    cell(line.period, COLUMNS.period, top);
    cell(String(line.quantity), COLUMNS.quantity, top);
    cell(f.usd(line.amountUsd), COLUMNS.amount, top);
    y = top + height + 5;
    rule(y);
  });

  // Totals, right-aligned under the amount column.
  y += 10;
  const total = (label: string, value: string, bold = false) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(10);
    doc.text(label, PAGE.left, y, { width: 320, align: 'right' });
    doc.text(value, 380, y, { width: PAGE.right - 380, align: 'right' });
    y = doc.y + 4;
  };
  total(l.total, f.usd(invoice.totalUsd));
  if (invoice.creditUsedUsd > 0) total(l.credit, `−${f.usd(invoice.creditUsedUsd)}`);
  total(invoice.status === 'issued' ? l.due : l.paid, f.usd(invoice.paidUsd), true);
  if (invoice.usdRate !== null && invoice.usdRate > 0) {
    total(l.rate, `1 USD = ${f.rate(invoice.usdRate)} UAH`);
    total(l.equivalent, f.uah(Math.round(invoice.paidUsd * invoice.usdRate * 100) / 100));
  }

  // Status.
  y += 16;
  doc.font('bold').fontSize(11).text(`${l.status}: ${l.statuses[invoice.status]}`, PAGE.left, y, { width: PAGE.width });
  if (invoice.paidAt) {
    doc
      .font('regular')
      .fontSize(10)
      .text(`${l.paidAt}: ${f.date(invoice.paidAt)}`, { width: PAGE.width });
  }
  doc.moveDown(2);
  doc.font('regular').fontSize(8).fillColor('#777').text(l.note, PAGE.left, doc.y, { width: PAGE.width });

  doc.end();
  return done;
}
