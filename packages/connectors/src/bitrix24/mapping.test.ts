import type { Lead } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import {
  commentOf,
  firstContact,
  originIdOf,
  recordFields,
  responsibleOf,
  titleOf,
  toPipelines,
  toStages,
  toUsers,
} from './mapping';
import { maskedWebhook, parseInboundWebhook } from './schema';

const lead = (over: Partial<Lead> = {}): Lead => ({ custom: {}, ...over });

describe('bitrix24 mapping', () => {
  it('reads the inbound webhook address as Bitrix24 shows it, and nothing else', () => {
    expect(parseInboundWebhook(' https://acme.bitrix24.ua/rest/12/a1B2c3D4e5/ ')).toEqual({
      origin: 'https://acme.bitrix24.ua',
      userId: 12,
      code: 'a1B2c3D4e5',
    });
    expect(parseInboundWebhook('https://acme.bitrix24.ua/rest/12/a1B2c3D4e5/crm.deal.add.json')?.code).toBe(
      'a1B2c3D4e5',
    );
    for (const bad of [
      'https://acme.bitrix24.ua/rest/12/short/',
      'https://acme.bitrix24.ua/rest/12/a1B2c3D4e5/../x',
      'https://acme.bitrix24.ua/rest/12/a1B2c3D4e5/#x',
      'https://acme.bitrix24.ua/api/12/a1B2c3D4e5/',
      'ftp://acme.bitrix24.ua/rest/12/a1B2c3D4e5/',
      'https://acme.bitrix24.ua/rest/12/a1B2-c3D4e5/',
    ]) {
      expect(parseInboundWebhook(bad), bad).toBeUndefined();
    }
    expect(maskedWebhook({ origin: 'https://acme.bitrix24.ua', userId: 12, code: 'secret123' })).toBe(
      'https://acme.bitrix24.ua/rest/12/••••/',
    );
  });

  it('titles, comments and marks', () => {
    expect(titleOf(lead({ phone: '+380501234567' }))).toBe('Заявка: +380501234567');
    expect(titleOf(lead(), '{source}:')).toBe('Заявка');
    expect(commentOf(lead({ comment: ' Call me ', custom: { city: 'Kyiv', empty: ' ' } }))).toBe(
      'Call me\n\ncity: Kyiv',
    );
    expect(commentOf(lead())).toBeUndefined();
    expect(originIdOf('a')).toBe(originIdOf('a'));
    expect(originIdOf('a')).not.toBe(originIdOf('b'));
    expect(originIdOf('a')).toMatch(/^LR-[0-9a-f]{24}$/);
  });

  it("a deal gets its pipeline, stage and contact; a lead the person's own fields", () => {
    const l = lead({ name: 'Olena Kovalenko', phone: '+380501234567', utm: { source: 'google', term: 'crm' } });
    const refs = { title: 'T', originId: 'LR-1', contactId: 7, categoryId: 0, stageStatusId: 'NEW', owner: 2 };
    expect(recordFields('deal', l, refs)).toMatchObject({
      CATEGORY_ID: 0,
      STAGE_ID: 'NEW',
      CONTACT_IDS: [7],
      ASSIGNED_BY_ID: 2,
      UTM_SOURCE: 'google',
      UTM_TERM: 'crm',
      ORIGINATOR_ID: 'leadrelay',
      ORIGIN_ID: 'LR-1',
    });
    expect(recordFields('deal', l, refs)).not.toHaveProperty('PHONE');
    expect(recordFields('lead', l, refs)).toMatchObject({
      NAME: 'Olena',
      LAST_NAME: 'Kovalenko',
      PHONE: [{ VALUE: '+380501234567', VALUE_TYPE: 'WORK' }],
      CONTACT_ID: 7,
    });
    expect(recordFields('lead', l, refs)).not.toHaveProperty('STAGE_ID');
  });

  it("the responsible user is distribution's only when the portal has them", () => {
    const users = [{ id: 1 }, { id: 2 }];
    expect(responsibleOf({ id: '2' }, users, {})).toBe(2);
    expect(responsibleOf({ id: '9' }, users, { ownerId: 1 })).toBe(1);
    expect(responsibleOf({ id: '2; DROP' }, users, {})).toBeUndefined();
    expect(responsibleOf(undefined, users, {})).toBeUndefined();
  });

  it("reads the portal's answers: the oldest contact, stages in order with their meaning, the default pipeline first, active users", () => {
    expect(firstContact({ CONTACT: [31, '7', 'x'] })).toBe(7);
    expect(firstContact([])).toBeUndefined();
    const stages = toStages([
      { ID: '5', STATUS_ID: 'WON', NAME: 'Won', SORT: '60', SEMANTICS: 'S' },
      { ID: '1', STATUS_ID: 'NEW', NAME: ' ', SORT: '10', EXTRA: { SEMANTICS: 'process' } },
      { ID: 'x', STATUS_ID: 'BAD' },
    ]);
    expect(stages).toEqual([
      { id: 1, statusId: 'NEW', name: 'NEW', sort: 10, semantics: 'process' },
      { id: 5, statusId: 'WON', name: 'Won', sort: 60, semantics: 'success' },
    ]);
    expect(
      toPipelines(
        [
          { id: 3, name: 'B', sort: 100, isDefault: 'N' },
          { id: 0, name: 'A', sort: 300, isDefault: 'Y' },
          { id: -1, name: 'bad' },
        ],
        () => [],
      ).map((p) => p.id),
    ).toEqual([0, 3]);
    expect(
      toUsers([
        { ID: '1', NAME: 'Anna', ACTIVE: true },
        { ID: '2', ACTIVE: false },
        { ID: '3', EMAIL: 'x@y.z' },
      ]),
    ).toEqual([
      { id: 1, name: 'Anna' },
      { id: 3, name: 'x@y.z', email: 'x@y.z' },
    ]);
  });
});
