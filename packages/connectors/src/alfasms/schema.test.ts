import { describe, expect, it } from 'vitest';
import { ZAlphaSmsSettings } from './schema';

describe('AlphaSMS settings', () => {
  const base = { sender: 'LeadRelay', leadTemplate: '{name}, дякуємо!' };
  const issues = (value: unknown) =>
    (ZAlphaSmsSettings.safeParse(value).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('takes a sender and a lead template, with quiet hours 21:00–09:00 by default', () => {
    const parsed = ZAlphaSmsSettings.parse(base);
    expect(parsed).toMatchObject({ recipients: 'lead', viber: false, international: false });
    expect(parsed.quietHours).toEqual({ enabled: true, from: '21:00', to: '09:00' });
  });

  it('wants the template of each recipient, known placeholders and a registered-looking alpha-name', () => {
    expect(issues({ ...base, recipients: 'both' })).toEqual(['managerTemplate:REQUIRED']);
    expect(issues({ sender: 'LeadRelay', recipients: 'lead' })).toEqual(['leadTemplate:REQUIRED']);
    expect(issues({ ...base, leadTemplate: 'Hi {nmae}' })).toEqual(['leadTemplate:SMS_PLACEHOLDER_UNKNOWN']);
    expect(issues({ ...base, sender: 'Лід Релей' })).toEqual(['sender:SMS_SENDER_INVALID']);
    expect(issues({ ...base, sender: 'MuchTooLongName' })).toEqual(['sender:SMS_SENDER_INVALID']);
    expect(issues({ ...base, quietHours: { enabled: true, from: '22:00', to: '22:00' } })).toEqual([
      'quietHours.to:VALIDATION_ERROR',
    ]);
    expect(issues({ ...base, quietHours: { enabled: true, from: '25:00', to: '08:00' } })).toEqual([
      'quietHours.from:VALIDATION_ERROR',
    ]);
  });
});
