import type { ConversionView } from '@leadrelay/shared';
import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../test/render';
import { ConversionsSection } from './conversions-section';

configure({ asyncUtilTimeout: 5000 });

const event = (over: Partial<ConversionView>): ConversionView => ({
  stage: 'lead',
  stageName: null,
  pipelineId: null,
  eventName: 'Lead',
  state: 'sent',
  attempts: 1,
  nextAttemptAt: null,
  sentAt: '2026-03-10T10:05:00.000Z',
  answer: { eventsReceived: 2, fbtraceId: 'AbCdEf123', messages: [] },
  error: null,
  createdAt: '2026-03-10T10:04:00.000Z',
  ...over,
});

const conversions: ConversionView[] = [
  event({}),
  event({ stage: '142', stageName: 'Успішно реалізовано', pipelineId: '7000001', eventName: 'Успішно реалізовано' }),
  event({
    stage: '143',
    stageName: 'Закрито',
    pipelineId: '7000001',
    eventName: 'Lost',
    state: 'failed',
    attempts: 3,
    sentAt: null,
    answer: null,
    error: 'FACEBOOK_CAPI_REJECTED',
  }),
  event({
    stage: '70000011',
    stageName: null,
    eventName: 'Contact',
    state: 'pending',
    sentAt: null,
    answer: null,
    nextAttemptAt: '2026-03-10T11:00:00.000Z',
  }),
];

describe('ConversionsSection', { timeout: 30_000 }, () => {
  it("lists each event with its stage, state, Meta's answer and a failure's reason, in Ukrainian", async () => {
    renderPage(<ConversionsSection type="facebook" conversions={conversions} />, { locale: 'uk' });
    // The title names the brand the source's manifest sends to.
    expect(await screen.findByText('Конверсії в Meta')).toBeTruthy();
    const rows = screen.getAllByTestId('conversion-row');
    expect(rows.map((r) => r.dataset.state)).toEqual(['sent', 'sent', 'failed', 'pending']);

    const [lead, won, lost, pending] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(lead.textContent).toContain('Lead');
    expect(lead.textContent).toContain('Етап: лід доставлено');
    expect(lead.textContent).toContain('Надіслано');
    expect(within(lead).getByTestId('conversion-answer').textContent).toBe(
      'Прийнято подій: 2 · Ідентифікатор запиту: AbCdEf123',
    );
    expect(won.textContent).toContain('Етап: Успішно реалізовано');
    expect(lost.textContent).toContain('Не вдалося');
    expect(lost.textContent).toContain('Facebook відхилив подію етапу CRM');
    expect(lost.textContent).not.toContain('FACEBOOK_CAPI_REJECTED');
    // A stage the CRM gave no name for is shown by its id; a waiting one says when it is tried next.
    expect(pending.textContent).toContain('Етап: 70000011');
    expect(pending.textContent).toContain('Очікує');
    expect(pending.textContent).toMatch(/Наступна спроба: \S/);
    expect(within(pending).queryByTestId('conversion-answer')).toBeNull();
  });

  it('is not shown for a lead with no conversion events', () => {
    renderPage(<ConversionsSection type="webhook" conversions={[]} />, { locale: 'en' });
    expect(screen.queryByTestId('conversions-section')).toBeNull();
  });
});
