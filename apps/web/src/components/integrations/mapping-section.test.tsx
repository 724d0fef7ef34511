import { mapLead, ZSourceOptions } from '@leadrelay/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SAMPLE } from '../../lib/integrations/sample';
import { callsTo, makeIntegration, routeFetch } from '../../test/integration-fixtures';
import { renderPage } from '../../test/render';
import { draftFromOptions, previewOf } from './mapping-draft';
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

const slow = { timeout: 5000 };
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
    // E-mail has no rule: its default mapping still fills it (issue 27).
    expect(leadValue('email')).toBe('olena.kovalenko@ukr.net');
    expect(within(preview()).getByText('The lead passes every filter')).toBeTruthy();
  });

  it('names the lead fields in the page language: UTM and custom fields by name, their path only as a code', async () => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }] }, DEFAULT_SAMPLE, 'uk');
    const labels = [...preview().querySelectorAll('.ant-descriptions-item-label')];
    // What a person reads: the label without its technical path (the <code> beside it).
    const words = labels.map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const code of copy.querySelectorAll('code')) code.remove();
      return copy.textContent?.trim();
    });
    expect(words).toEqual(expect.arrayContaining(['Місто', 'Джерело (UTM)', 'Канал (UTM)', 'Кампанія (UTM)']));
    expect(words.join(' ')).not.toMatch(/UTM (source|medium|campaign)|custom\./);
    expect(within(preview()).getByText('custom.city').tagName).toBe('CODE');
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

  it('says nothing is missing in a rule just added until it is touched, then what is', async () => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByLabelText('Lead field, rule 2')).toBeTruthy();
    expect(screen.queryByText('This field is required')).toBeNull();
    // Still unfinished, so it cannot be saved yet.
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Lead field, rule 2'), { target: { value: 'comment' } });
    expect(await screen.findByText('This field is required')).toBeTruthy();
  });

  it('shows why a filter would drop the lead, and that it passes once the sample matches', async () => {
    routeFetch(hookRoute);
    renderSection({
      filters: [{ field: 'utm.source', op: 'equals', value: 'google' }],
    });
    expect(within(preview()).getByText('Would be dropped: utm.source equals «google»')).toBeTruthy();
    expect(within(preview()).queryByText(/FILTERED|Filter failed/)).toBeNull();

    // The filter's value edited to the sample's source: the lead is kept.
    fireEvent.change(screen.getByLabelText('Value, filter 1'), { target: { value: 'InstaGram' } });
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
    // antd's message loads after the page (app/deferred-app.tsx): on a busy machine that takes a while.
    expect(await screen.findByText('Saved', {}, slow)).toBeTruthy();
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

  // Issue 27: one rule (city → custom.city) used to drop the whole default mapping.
  it('shows the default mapping as rows beside one rule, and the preview keeps name, phone, e-mail, message and UTM', async () => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }] });
    const rows = screen.getAllByTestId('mapping-default').map((r) => r.getAttribute('data-default'));
    expect(rows).toEqual(['name', 'phone', 'email', 'comment', 'utm', 'custom']);
    const phone = screen.getAllByTestId('mapping-default')[1]!;
    expect(within(phone).getByText('phone_number')).toBeTruthy();
    expect(within(phone).getByText('Phone to E.164')).toBeTruthy();
    expect(leadValue('name')).toBe('Олена Коваленко');
    expect(leadValue('phone')).toBe('+380671234567');
    expect(leadValue('email')).toBe('olena.kovalenko@ukr.net');
    expect(leadValue('comment')).toBe('Хочу дізнатися вартість доставки до Львова');
    expect(leadValue('utm.source')).toBe('instagram');
    expect(leadValue('custom.city')).toBe('Львів');
    expect(within(preview()).queryByTestId('preview-no-contact')).toBeNull();
  });

  it('a rule on a lead field replaces its default row; "change" turns a default into a rule to edit', async () => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'form.id', to: 'comment' }] });
    const ids = () => screen.getAllByTestId('mapping-default').map((r) => r.getAttribute('data-default'));
    expect(ids()).toEqual(['name', 'phone', 'email', 'utm', 'custom']);
    expect(leadValue('comment')).toBe('contact-footer');

    fireEvent.click(screen.getByRole('button', { name: 'Change the default: Phone' }));
    expect(ids()).toEqual(['name', 'email', 'utm', 'custom']);
    expect(screen.getAllByTestId('mapping-row')).toHaveLength(2);
    expect((screen.getByLabelText('Lead field, rule 2') as HTMLInputElement).value).toBe('phone');
    expect(leadValue('phone')).toBe('+380671234567');
  });

  describe('removing default rows persists', () => {
    const put = `PUT /api/integrations/${ID}/update`;
    const saving = () =>
      routeFetch({
        ...hookRoute,
        [put]: (_u: URL, init: RequestInit) => makeIntegration({ options: JSON.parse(init.body as string).options }),
      });
    const rowIds = () => screen.queryAllByTestId('mapping-default').map((r) => r.getAttribute('data-default'));
    const save = async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Saved', {}, slow)).toBeTruthy();
    };
    const off = ['email', 'utm.source', 'utm.medium', 'utm.campaign', 'utm.content', 'utm.term'];

    it('as defaults { off } for the rows removed, which the preview leaves out', async () => {
      const fetch = saving();
      renderSection({ mapping: [{ from: 'city', to: 'custom.city' }] });
      fireEvent.click(screen.getByRole('button', { name: 'Remove the default: E-mail' }));
      fireEvent.click(screen.getByRole('button', { name: 'Remove the default: UTM tags' }));
      expect(leadValue('email')).toBeNull();
      expect(leadValue('utm.source')).toBeNull();
      expect(leadValue('phone')).toBe('+380671234567');
      await save();
      expect(callsTo(fetch, put)[0]?.body).toMatchObject({
        options: { mapping: [{ from: 'city', to: 'custom.city' }], defaults: { off } },
      });
    });

    it('opened again, the removed rows stay removed; removing the rest saves defaults: false', async () => {
      const fetch = saving();
      renderSection({ mapping: [{ from: 'city', to: 'custom.city' }], defaults: { off } });
      expect(rowIds()).toEqual(['name', 'phone', 'comment', 'custom']);
      for (const field of ['Name', 'Phone', 'Comment', 'Custom fields']) {
        fireEvent.click(screen.getByRole('button', { name: `Remove the default: ${field}` }));
      }
      expect(rowIds()).toEqual([]);
      expect(screen.getByText('The default mapping is off: the lead gets only what the rules write.')).toBeTruthy();
      await save();
      expect(callsTo(fetch, put)[0]?.body).toMatchObject({ options: { defaults: false } });
    });

    it('"restore" brings every default back and saves no defaults key', async () => {
      const fetch = saving();
      renderSection({ mapping: [], defaults: false });
      expect(rowIds()).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: 'Restore the default mapping' }));
      expect(rowIds()).toEqual(['name', 'phone', 'email', 'comment', 'utm', 'custom']);
      await save();
      expect(callsTo(fetch, put)[0]?.body.options).not.toHaveProperty('defaults');
    });
  });

  it.each([
    ['en', 'No contact: the lead has no phone, e-mail or name.'],
    ['uk', 'Без контакту: у ліда немає ні телефону, ні e-mail, ні імені.'],
  ] as const)('warns (%s) when the lead would have no phone, e-mail or name', async (locale, text) => {
    routeFetch(hookRoute);
    renderSection({ mapping: [{ from: 'city', to: 'custom.city' }], defaults: false }, DEFAULT_SAMPLE, locale);
    const warning = within(preview()).getByTestId('preview-no-contact');
    expect(warning.textContent).toContain(text);
    expect(leadValue('custom.city')).toBe('Львів');
  });
});

describe('the preview runs what ingest runs', () => {
  const payload = JSON.parse(DEFAULT_SAMPLE) as Record<string, unknown>;
  it.each([
    [{}],
    [{ mapping: [{ from: 'city', to: 'custom.city' }] }],
    [{ mapping: [{ from: ['city', 'form.id'], to: 'comment', separator: ' / ' }], defaults: { off: ['custom'] } }],
    [{ mapping: [{ from: 'email', to: 'email' }], defaults: false }],
    [{ filters: [{ field: 'utm.source', op: 'equals', value: 'google' }] }],
  ])('%j: the same lead, verdict and warnings as the shared mapLead', (options) => {
    const parsed = ZSourceOptions.parse(options);
    const shown = previewOf(draftFromOptions(options), payload);
    const ingest = mapLead(payload, parsed);
    expect(shown.lead).toEqual(ingest.lead);
    expect(shown.warnings).toEqual(ingest.warnings);
    expect(shown.dropped?.reason).toEqual(ingest.verdict.kept ? undefined : ingest.verdict.reason);
  });
});
