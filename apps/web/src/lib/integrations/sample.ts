// The preview sample: a realistic Ukrainian website form, kept per integration for the session.
export const DEFAULT_SAMPLE = JSON.stringify(
  {
    name: 'Олена Коваленко',
    phone: '067 123 45 67',
    email: 'Olena.Kovalenko@ukr.net',
    message: 'Хочу дізнатися вартість доставки до Львова',
    city: 'Львів',
    form: { id: 'contact-footer', page: 'https://shop.example.ua/dostavka' },
    utm_source: 'instagram',
    utm_medium: 'cpc',
    utm_campaign: 'vesna_2026',
  },
  null,
  2,
);

const keyOf = (id: string) => `lr-sample-${id}`;

export function readSample(id: string): string {
  try {
    return sessionStorage.getItem(keyOf(id)) ?? DEFAULT_SAMPLE;
  } catch {
    return DEFAULT_SAMPLE;
  }
}

export function saveSample(id: string, text: string): void {
  try {
    sessionStorage.setItem(keyOf(id), text);
  } catch {
    // Storage full or disabled: the sample still lives in the page.
  }
}
