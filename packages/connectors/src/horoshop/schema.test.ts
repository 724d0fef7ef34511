import { applyMapping } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import {
  HOROSHOP_SAMPLE_ORDER,
  type HoroshopOrder,
  horoshopOrderPayload,
  horoshopShopUrl,
  ZHoroshopAuthBody,
} from './schema';

/** What an order becomes under an integration's default mapping (ingest applies it to the payload). */
const leadOf = (order: HoroshopOrder) => applyMapping(horoshopOrderPayload(order), undefined);

describe('a Horoshop order as a lead (default mapping)', () => {
  it('carries the customer, the items, the total, delivery and UTM', () => {
    const lead = leadOf(HOROSHOP_SAMPLE_ORDER);
    expect(lead.name).toBe('Олена Коваленко');
    expect(lead.phone).toBe('+380671234567');
    expect(lead.email).toBe('olena@example.com');
    expect(lead.utm).toEqual({ source: 'google', medium: 'cpc', campaign: 'spring' });
    expect(lead.custom).toMatchObject({
      order_id: '1024',
      total: '4500',
      currency: 'UAH',
      items: 'Кавоварка CM-200 × 1 = 4200; Фільтри, 10 шт. × 2 = 300',
      items_count: '2',
      delivery: 'Нова Пошта, Київ',
      payment: 'Оплата при отриманні',
      paid: '0',
    });
    // The comment a CRM shows: the order in the shop's own words and numbers.
    expect(lead.comment).toBe(
      '#1024\nКавоварка CM-200 × 1 = 4200; Фільтри, 10 шт. × 2 = 300\n4500 UAH\nНова Пошта, Київ',
    );
    // -1 is "delivery not calculated", not a price.
    expect(lead.custom.delivery_price).toBeUndefined();
  });

  it('reads a Ukrainian phone written locally, a numeric campaign id and amounts written as text', () => {
    const lead = leadOf({
      order_id: '77',
      delivery_name: '  Тарас ',
      delivery_phone: '067 555 44 33',
      total_sum: '1 250,50',
      total_default: '1500',
      analytics: { utm_source: 'google', utm_campaign: 23964436493 },
      products: [{ title: 'Plain title', quantity: '3' }],
    });
    expect(lead.name).toBe('Тарас');
    expect(lead.phone).toBe('+380675554433');
    expect(lead.utm?.campaign).toBe('23964436493');
    expect(lead.custom).toMatchObject({ total: '1250.5', total_before_discount: '1500', items: 'Plain title × 3' });
  });

  it('survives an order with nothing but its id, and junk where lists and titles should be', () => {
    const payload = horoshopOrderPayload({
      order_id: 5,
      products: 'not a list' as never,
      analytics: null as never,
      delivery_type: { title: { ru: 'Самовывоз' } },
    });
    expect(payload).toEqual({ order_id: '5', delivery: 'Самовывоз', comment: '#5\nСамовывоз' });
  });
});

describe('the shop address', () => {
  it('becomes an https origin however it is typed', () => {
    expect(horoshopShopUrl('MyShop.com.ua')).toBe('https://myshop.com.ua');
    expect(horoshopShopUrl(' https://myshop.com.ua/admin/orders ')).toBe('https://myshop.com.ua');
    expect(horoshopShopUrl('http://myshop.com.ua')).toBe('https://myshop.com.ua');
    expect(horoshopShopUrl('shop.horoshop.ua:8443')).toBe('https://shop.horoshop.ua:8443');
  });
  it('keeps plain http only where no certificate can be (a test shop on an IP address)', () => {
    expect(horoshopShopUrl('http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
    expect(horoshopShopUrl('http://localhost:4100/')).toBe('http://localhost:4100');
  });
  it('refuses what is not a shop address', () => {
    for (const bad of [
      '',
      'myshop',
      'ftp://myshop.ua',
      'https://user:pw@myshop.ua',
      'my shop.ua',
      'javascript:alert(1)',
    ]) {
      expect(horoshopShopUrl(bad), bad).toBeUndefined();
    }
  });
});

describe('the connect form', () => {
  const codes = (body: unknown) => {
    const parsed = ZHoroshopAuthBody.safeParse(body);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };
  it('takes login and password, or a token alone', () => {
    expect(codes({ domain: 'myshop.ua', login: 'api', password: 'secret' })).toEqual([]);
    expect(codes({ domain: 'myshop.ua', token: 'abc' })).toEqual([]);
  });
  it('says which field is missing or wrong', () => {
    expect(codes({ domain: 'myshop.ua' })).toEqual(['login:REQUIRED', 'password:REQUIRED']);
    expect(codes({ domain: 'myshop.ua', login: 'api' })).toEqual(['password:REQUIRED']);
    expect(codes({ domain: 'not a shop', token: 'abc' })).toEqual(['domain:HOROSHOP_DOMAIN_INVALID']);
    expect(codes({ token: 'abc' })).toEqual(['domain:REQUIRED']);
    expect(codes({ domain: 'myshop.ua', token: 'abc', extra: 1 })).toHaveLength(1);
  });
});
