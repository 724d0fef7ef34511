import { INTEGRATION_STATE_CODES, type IntegrationState } from '@leadrelay/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../test/render';
import { StateTag } from './status-tag';

const UK: Record<(typeof INTEGRATION_STATE_CODES)[number], string> = {
  not_configured: 'Не налаштовано',
  not_connected: 'Не підключено',
  no_destinations: 'Немає призначень',
  working: 'Працює',
  retrying: 'Повторні спроби',
  paused: 'Вимкнено',
  broken_auth: 'Помилка авторизації',
  broken_other: 'Не працює',
};

describe('StateTag', () => {
  it.each(INTEGRATION_STATE_CODES)('names the %s state in Ukrainian', (code) => {
    renderPage(<StateTag state={{ code }} />);
    expect(screen.getByText(UK[code])).toBeTruthy();
  });

  it('only "working" is green: a destination without its URL is orange, a broken one red', () => {
    const { unmount } = renderPage(<StateTag state={{ code: 'working' }} />);
    expect(screen.getByText('Працює').className).toMatch(/green/);
    unmount();
    renderPage(
      <>
        <StateTag state={{ code: 'not_configured' }} />
        <StateTag state={{ code: 'broken_auth', reason: { code: 'AUTH' } }} />
      </>,
    );
    expect(screen.getByText('Не налаштовано').className).toMatch(/orange/);
    expect(screen.getByText('Помилка авторизації').className).toMatch(/red/);
  });

  it('says the reason in the user language with its parameters, never the server English', () => {
    const state: IntegrationState = {
      code: 'retrying',
      reason: { code: 'HTTP_5XX', params: { status: 503, failures: 5, retryAt: '2026-03-01T10:05:00.000Z' } },
    };
    renderPage(<StateTag state={state} />);
    const reason = screen.getByText(/Помилка на боці сервера \(HTTP 503\)/);
    expect(reason.textContent).toMatch(/Наступна спроба: /);
    expect(reason.textContent).not.toMatch(/Paused|leads wait|next try/);
  });

  it('a source names the destination that fails', () => {
    renderPage(
      <StateTag
        state={{
          code: 'broken_other',
          reason: { code: 'DESTINATION_BROKEN', params: { name: 'Мій сервер', state: 'not_configured' } },
        }}
      />,
    );
    expect(screen.getByText('Призначення «Мій сервер»: не налаштовано')).toBeTruthy();
  });

  it('in English on an English page', () => {
    renderPage(<StateTag state={{ code: 'no_destinations' }} />, { locale: 'en' });
    expect(screen.getByText('No destinations')).toBeTruthy();
  });

  it('hides the reason when asked (the page header shows it in its alert)', () => {
    renderPage(<StateTag state={{ code: 'broken_auth', reason: { code: 'AUTH' } }} withReason={false} />);
    expect(screen.queryByText('Сервер відхилив авторизацію')).toBeNull();
  });
});
