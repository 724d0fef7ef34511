import type { Integration } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { sourcesOf } from './sources-of';

const ref = (i: Pick<Integration, '_id' | 'name' | 'type'>) => ({ _id: i._id, name: i.name, type: i.type });
const make = (id: string, name: string, type: string, destination: Integration[] = []) =>
  ({ _id: id, name, type, kind: 'source', destination: destination.map(ref) }) as unknown as Integration;

describe('the sources a destination is sent to from', () => {
  const crm = make('crm', 'Main CRM', 'amocrm');
  const bot = make('bot', 'Managers', 'telegram');
  const all = [make('w1', 'Site form', 'webhook', [crm, bot]), make('w2', 'Akcii', 'webhook', [bot]), crm, bot];

  it('lists every integration that names it among its destinations, by name', () => {
    expect(sourcesOf(all, 'bot').map((i) => i.name)).toEqual(['Akcii', 'Site form']);
    expect(sourcesOf(all, 'crm').map((i) => i._id)).toEqual(['w1']);
  });

  it('is empty for a destination nothing sends to', () => {
    expect(sourcesOf(all, make('x', 'Spare', 'http')._id)).toEqual([]);
  });
});
