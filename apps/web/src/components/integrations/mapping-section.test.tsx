import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SAMPLE } from '../../lib/integrations/sample';
import { callsTo, makeIntegration, routeFetch } from '../../test/integration-fixtures';
import { renderPage } from '../../test/render';
import { MappingSection } from './mapping-section';

afterEach(() => vi.unstubAllGlobals());

const ID = '11111111-1111-4111-8111-111111111111';
const hookRoute = { [`GET /api/integrations/${ID}/generateHook`]: { url: 'https://x/api/hooks/in/tok', token: 'tok' } };

function renderSection(options: Record<string, unknown>, sample = DEFAULT_SAMPLE, locale: 'uk' | 'en' = 'en') {
  const integration = makeIntegration({ options });
  return renderPage(
    <MappingSection integration={integration} sample={sample} onSampleChange={() => {}} withHooks={false} />,
    { locale, path: locale === 'en' ? '/en/admin/integrations/webhook/x' : '/admin/integrations/webhook/x' },
  );
}

const preview = () => screen.getByTestId('mapping-preview');
const leadValue = (field: string) => preview().querySelector(`[data-field="${field}"]`)?.textContent ?? null;

// The first render of antd's form controls is slow on a busy machine.
describe('mapping editor and live preview', { timeout: 20_000 }, () => {
  it('computes the mapped lead from the sample with the shared mapping (phone in E.164, custom field)', async () => {
    routeFetch(hookRoute);
    renderSection({
      mapping: [
        { from: 'phone', to: 'phone', transform: ['phone'] },
        { from: 'city', to: 'custom.city' },
        { from: ['name', 'form.id'], to: 'comment', separator: ' / ' },
      ],
    });
    expect(leadValue('phone')).toBe('+380671234567');
    expect(leadValue('custom.city')).toBe('Львів');
    expect(leadValue('comment')).toBe('Олена Коваленко / contact-footer');
    // Only mapped fields: e-mail has no rule, so it is not in the lead.
    expect(leadValue('email')).toBeNull();
    expect(within(preview()).getByText('The lead passes every filter')).toBeTruthy();
  });

  it('editing a row changes the preview as the user types', async () => {
    routeFetch(hookRoute);
    renderSection({
      mapping: [
        { from: 'city', to: 'custom.city' },
        { from: 'missing', to: 'email' },
      ],
    });
    expect(leadValue('custom.city')).toBe('Львів');
    expect(leadValue('email')).toBeNull();

    // Rule 1 now writes the city to the comment.
    fireEvent.change(screen.getByLabelText('Lead field, rule 1'), { target: { value: 'comment' } });
    expect(leadValue('comment')).toBe('Львів');
    expect(leadValue('custom.city')).toBeNull();

    // Rule 2 finds nothing: its default value fills the field.
    fireEvent.change(screen.getByLabelText('Default value, rule 2'), { target: { value: 'no-email@example.com' } });
    expect(leadValue('email')).toBe('no-email@example.com');
  });

  it('marks an invalid lead field, leaves the row out of the preview and blocks saving', async () => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }] });
    fireEvent.change(screen.getByLabelText('Lead field, rule 1'), { target: { value: 'city' } });
    expect(await screen.findByText('Please check the highlighted fields')).toBeTruthy();
    expect(screen.getByText('1 unfinished rule is left out')).toBeTruthy();
    // With no valid rule the default mapping applies, as on the server.
    expect(leadValue('custom.city')).toBe('Львів');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows why a filter would drop the lead, and that it passes once the sample matches', async () => {
    routeFetch(hookRoute);
    renderSection({
      filters: [{ field: 'utm.source', op: 'equals', value: 'google' }],
    });
    expect(within(preview()).getByText('Would be dropped: utm.source equals «google»')).toBeTruthy();
    expect(within(preview()).queryByText(/FILTERED|Filter failed/)).toBeNull();

    // The filter's value edited to the sample's source: the lead is kept.
    fireEvent.change(screen.getByLabelText('Value, filter 1'), { target: { value: 'FaceBook' } });
    expect(within(preview()).getByText('The lead passes every filter')).toBeTruthy();
    expect(within(preview()).queryByText(/Would be dropped/)).toBeNull();
  });

  it('explains a dropped lead in Ukrainian for a negated "not empty" filter on a raw field', async () => {
    routeFetch(hookRoute);
    renderSection({ filters: [{ field: 'raw.form.id', op: 'notEmpty', negate: true }] }, DEFAULT_SAMPLE, 'uk');
    expect(within(preview()).getByText('Лід буде відкинуто: raw.form.id не не порожнє')).toBeTruthy();
  });

  it('says so when the sample is not a JSON object', async () => {
    routeFetch(hookRoute);
    renderSection({}, '{"name": "Олена",');
    expect(screen.getByText('This is not a JSON object: check the quotes and commas.')).toBeTruthy();
  });

  it('saves the edited rules through PUT …/update and keeps other option keys', async () => {
    const fetch = routeFetch({
      ...hookRoute,
      [`PUT /api/integrations/${ID}/update`]: (_u: URL, init: RequestInit) =>
        makeIntegration({ options: JSON.parse(init.body as string).options }),
    });
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }], owner: { note: 'kept' } });
    fireEvent.change(screen.getByLabelText('Default value, rule 1'), { target: { value: 'Київ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    const [call] = callsTo(fetch, `PUT /api/integrations/${ID}/update`);
    expect(call?.body).toEqual({
      options: {
        owner: { note: 'kept' },
        mapping: [{ from: 'city', to: 'custom.city', default: 'Київ' }],
        filters: [],
        dedupe: {},
      },
    });
  });
});
