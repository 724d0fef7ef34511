import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SELLER_CONFIG } from '../../config';
import { type InvoicePdfInput, renderInvoicePdf } from './invoice-pdf';

const invoice: InvoicePdfInput = {
  number: 'LR-2026-000123',
  issuedAt: '2026-11-24T10:00:00Z',
  paidAt: '2026-11-24T10:00:00Z',
  buyer: { name: 'Олена Коваль', login: 'olena@example.com', company: 'ТОВ «Ромашка»' },
  lines: [{ title: 'Тариф «Бізнес», місяць', period: '2026-11-24 — 2026-12-24', quantity: 1, amountUsd: 29 }],
  totalUsd: 29,
  creditUsedUsd: 4.5,
  paidUsd: 24.5,
  usdRate: 41.5,
  status: 'paid',
};
const seller = { ...DEFAULT_SELLER_CONFIG, name: 'ФОП Іваненко Іван Іванович', code: '1234567890' };

/** The PDF's text as a reader (or a copy-paste) gets it, spaces normalised. */
async function textOf(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('renderInvoicePdf', () => {
  it('is a PDF in Ukrainian with the number, both parties, the amounts and the hryvnia equivalent', async () => {
    const pdf = await renderInvoicePdf(invoice, seller, 'uk');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(pdf);
    for (const expected of [
      'Рахунок-фактура № LR-2026-000123',
      'Продавець',
      'ФОП Іваненко Іван Іванович',
      '1234567890',
      'Покупець',
      'Олена Коваль',
      'ТОВ «Ромашка»',
      'Тариф «Бізнес», місяць',
      'Сума, USD',
      'Разом',
      'Зараховано з реферального балансу',
      'Сплачено',
      '24,50 USD',
      'Курс НБУ',
      '41,50',
      // 24.50 × 41.50
      '1 016,75',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Invoice');
  });

  it('is in English for an English account', async () => {
    const text = await textOf(await renderInvoicePdf(invoice, seller, 'en'));
    for (const expected of [
      'Invoice No. LR-2026-000123',
      'Seller',
      'Buyer',
      'Total',
      'Paid',
      '$24.50',
      'NBU rate',
      'UAH equivalent',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Рахунок');
  });

  it('prints no hryvnia equivalent without a rate, and no credit line without credit', async () => {
    const text = await textOf(
      await renderInvoicePdf(
        { ...invoice, usdRate: null, creditUsedUsd: 0, paidUsd: 29, status: 'refunded' },
        seller,
        'uk',
      ),
    );
    expect(text).not.toContain('Курс НБУ');
    expect(text).not.toContain('реферального');
    expect(text).toContain('Кошти повернуто');
  });
});
