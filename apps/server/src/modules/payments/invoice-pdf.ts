// Placeholder until the liqpay branch lands its renderer.
export interface SellerConfig { name: string }
export async function renderInvoicePdf(_i: unknown, _s: SellerConfig, _l: string): Promise<Buffer> { throw new Error('not yet'); }
