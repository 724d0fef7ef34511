import type { Parser } from '@leadrelay/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, routeFetch } from '../../../test/integration-fixtures';
import { renderPage } from '../../../test/render';
import { RulesTab } from './rules-tab';

afterEach(() => vi.unstubAllGlobals());

const ID = '99999999-9999-4999-8999-999999999999';
const parser: Parser = {
  _id: ID,
  type: 'parser',
  name: 'Замовлення Prom',
  active: true,
  address: `p-${'a'.repeat(32)}@parsers.test`,
  destination: [],
  distributionId: null,
  options: {},
  rules: { match: { from: 'prom.ua' }, auto: true, fields: [] },
  imap: null,
  sample: '',
  lastMail: null,
  createdAt: '2026-11-20T10:00:00.000Z',
};

function mount() {
  const fetch = routeFetch({
    [`POST /api/admin/parser/${ID}/preview`]: (_url: URL, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      const wantsCity = body.rules.fields.some((f: { field: string }) => f.field === 'city');
      return {
        from: 'Prom.ua <no-reply@prom.ua>',
        subject: 'Нове замовлення №1',
        matched: true,
        reason: null,
        fields: { name: 'Олена', ...(wantsCity ? { city: 'Київ' } : {}) },
        pairs: [{ label: 'Місто', value: 'Київ' }],
      };
    },
    [`PUT /api/admin/parser/${ID}/config`]: (_url: URL, init: RequestInit) => ({
      ...parser,
      ...JSON.parse(String(init.body)),
    }),
  });
  renderPage(
    <RulesTab parser={parser} sample="" onSampleChange={() => {}} sampleMail={null} onClearSampleMail={() => {}} />,
    {
      locale: 'en',
    },
  );
  return fetch;
}

describe('the rules tab', () => {
  it('asks for a sample first, and says so instead of calling the server', () => {
    const fetch = mount();
    expect(screen.getByText('Paste a sample to see its fields')).toBeTruthy();
    expect(callsTo(fetch, `POST /api/admin/parser/${ID}/preview`)).toHaveLength(0);
  });

  it('previews the sample under the rules being edited, and a found label becomes a rule with one click', async () => {
    const calls = mountWithSample();
    const preview = await screen.findByTestId('parser-preview');
    expect(within(preview).getByText('The mail is taken')).toBeTruthy();
    expect(within(preview).getByText('Олена')).toBeTruthy();

    fireEvent.click(within(preview).getByText('Київ'));
    const rule = await screen.findByTestId('parser-rule');
    expect(
      (within(rule).getByRole('textbox', { name: 'Label (several: separate with “|”)' }) as HTMLInputElement).value,
    ).toBe('Місто');
    // A label that is not Latin gives no field name: the user names it; the preview follows.
    fireEvent.change(within(rule).getByRole('combobox', { name: 'Field' }), { target: { value: 'city' } });
    await waitFor(() => expect(within(screen.getByTestId('parser-preview')).getByText('city')).toBeTruthy());
    // The field is named in the page's language; its key stays beside it as a code.
    expect(within(screen.getByTestId('parser-preview')).getByText('City')).toBeTruthy();
    expect(within(screen.getByTestId('parser-preview')).getByText('city').tagName).toBe('CODE');
    const last = callsTo(calls, `POST /api/admin/parser/${ID}/preview`).at(-1);
    expect(last?.body).toMatchObject({
      sample: 'Місто: Київ',
      rules: { match: { from: 'prom.ua' }, fields: [{ kind: 'label', field: 'city', label: 'Місто' }] },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() => expect(callsTo(calls, `PUT /api/admin/parser/${ID}/config`)).toHaveLength(1));
    expect(callsTo(calls, `PUT /api/admin/parser/${ID}/config`)[0]?.body).toEqual({
      rules: { match: { from: 'prom.ua' }, auto: true, fields: [{ kind: 'label', field: 'city', label: 'Місто' }] },
    });
  });

  it('shows a regular expression that cannot work and does not save it', async () => {
    mountWithSample();
    fireEvent.click(screen.getByRole('button', { name: /Add a field/ }));
    const rule = await screen.findByTestId('parser-rule');
    fireEvent.change(within(rule).getByRole('combobox', { name: 'Field' }), { target: { value: 'order' } });
    fireEvent.mouseDown(within(rule).getByRole('combobox', { name: 'How to find' }));
    fireEvent.click(await screen.findByTitle('Regular expression'));
    fireEvent.change(await within(rule).findByRole('textbox', { name: 'Regular expression' }), {
      target: { value: '(№' },
    });
    expect(await within(rule).findByText('The regular expression has an error')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save rules' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

function mountWithSample() {
  const fetch = routeFetch({
    [`POST /api/admin/parser/${ID}/preview`]: (_url: URL, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      const wantsCity = body.rules.fields.some((f: { field: string }) => f.field === 'city');
      return {
        from: 'Prom.ua <no-reply@prom.ua>',
        subject: 'Нове замовлення №1',
        matched: true,
        reason: null,
        fields: { name: 'Олена', ...(wantsCity ? { city: 'Київ' } : {}) },
        pairs: [{ label: 'Місто', value: 'Київ' }],
      };
    },
    [`PUT /api/admin/parser/${ID}/config`]: (_url: URL, init: RequestInit) => ({
      ...parser,
      ...JSON.parse(String(init.body)),
    }),
  });
  renderPage(
    <RulesTab
      parser={parser}
      sample="Місто: Київ"
      onSampleChange={() => {}}
      sampleMail={null}
      onClearSampleMail={() => {}}
    />,
    { locale: 'en' },
  );
  return fetch;
}
