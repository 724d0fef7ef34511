// KeyCRM's trigger webhook as a status watch: which card ids a body names (liberal in where, strict in
// what an id is), and the card read back: moved or not from where our delivery put it, with its stage.
import { describe, expect, it } from 'vitest';
import { keycrm } from './index';
import { cardIdsOf, keycrmCardEvent, movedCard, placedBy } from './stage-watch';

const PIPELINES = [
  {
    id: 1,
    name: 'Ліди',
    stages: [
      { id: 11, name: 'Новий' },
      { id: 12, name: 'В роботі' },
    ],
  },
  { id: 2, name: 'Опт', stages: [{ id: 21, name: 'Новий' }] },
];

describe('the card ids a webhook body names', () => {
  it('reads id or card_id at the top or under context, data or card; JSON numbers or digit strings; form keys', () => {
    expect(cardIdsOf(keycrmCardEvent({ id: 1001, status_id: 12 }))).toEqual(['1001']);
    expect(cardIdsOf({ card_id: '77' })).toEqual(['77']);
    expect(cardIdsOf({ data: { card_id: 5 }, card: { id: '6' } })).toEqual(['5', '6']);
    expect(cardIdsOf({ data: [{ id: 1 }, { card_id: '2' }, 'x', { id: 1 }] })).toEqual(['1', '2']);
    expect(cardIdsOf({ 'context[id]': '1001', 'context[status_id]': '12' })).toEqual(['1001']);
  });

  it('names no card (null) for what is not an id or not the body’s own', () => {
    for (const body of [
      null,
      '1001',
      [{ id: 1 }],
      {},
      { id: 0 },
      { id: -3 },
      { id: 1.5 },
      { id: 2 ** 60 },
      { id: '0012' },
      { id: '1234567890123456' },
      { id: 'abc' },
      { status_id: 12 },
      JSON.parse('{"__proto__":{"id":5}}'),
      { context: JSON.parse('{"__proto__":{"id":5}}') },
      Object.create({ id: 5 }),
    ]) {
      expect(cardIdsOf(body)).toBeNull();
    }
  });

  it('reads at most 50 cards from one body', () => {
    expect(cardIdsOf({ data: Array.from({ length: 80 }, (_, i) => ({ id: i + 1 })) })).toHaveLength(50);
  });
});

describe('a card read back from KeyCRM', () => {
  const card = { id: 1001, pipeline_id: 1, status_id: 12, status_changed_at: '2026-05-01 10:20:30' };

  it('moved from where we put it: its stage by id, pipeline and the status’s title, at status_changed_at (UTC)', () => {
    const status = { id: 12, pipeline_id: 1, title: 'В роботі' };
    expect(movedCard('1001', { ...card, status }, { statusId: 11, pipelineId: 1 })).toEqual({
      externalId: '1001',
      at: new Date('2026-05-01T10:20:30Z'),
      stage: { id: '12', pipelineId: '1', name: 'В роботі' },
    });
    // No pipeline_id on the card: the status's.
    const { pipeline_id: _, ...bare } = card;
    expect(movedCard('1001', { ...bare, status }, { statusId: 11 })?.stage).toEqual({
      id: '12',
      pipelineId: '1',
      name: 'В роботі',
    });
  });

  it('still in our status is no move; the same status id in another pipeline is', () => {
    expect(movedCard('1001', card, { statusId: 12, pipelineId: 1 })).toBeUndefined();
    expect(movedCard('1001', { ...card, pipeline_id: 2 }, { statusId: 12, pipelineId: 1 })?.stage).toEqual({
      id: '12',
      pipelineId: '2',
    });
    expect(movedCard('1001', { id: 1001 }, { statusId: 12 })).toBeUndefined();
    expect(movedCard('1001', null, { statusId: 12 })).toBeUndefined();
  });

  it('where our delivery put it: the settings’ status, else the first status of the chosen (or first) pipeline', async () => {
    const list = async () => PIPELINES;
    expect(await placedBy({ pipelineId: 1, statusId: 12 }, list)).toEqual({ statusId: 12, pipelineId: 1 });
    expect(await placedBy({ pipelineId: 2 }, list)).toEqual({ statusId: 21, pipelineId: 2 });
    expect(await placedBy({}, list)).toEqual({ statusId: 11, pipelineId: 1 });
    expect(await placedBy(undefined, list)).toEqual({ statusId: 11, pipelineId: 1 });
    expect(await placedBy({ pipelineId: 9 }, list)).toBeUndefined();
  });

  it('is declared as a pasted watch without a token', () => {
    const watch = keycrm.pastedStageWatch!;
    expect(watch.setup).toBe('pasted');
    expect(watch.token).toBeUndefined();
    expect(watch.read({ context: { id: 3 } })).toEqual([{ externalId: '3' }]);
    expect(watch.read({ event: 'x' })).toBeNull();
  });
});
