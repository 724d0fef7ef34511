import { isValidPassword } from '@leadrelay/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test/render';
import { PasswordWithGenerator } from './password-with-generator';

function Harness() {
  const [form] = Form.useForm();
  return (
    <Form form={form}>
      <PasswordWithGenerator form={form} label="Password" confirmLabel="Confirm" rules={[]} />
    </Form>
  );
}

describe('password generator button', () => {
  // Twenty generate-and-render rounds: half a second alone, over 5 s on a loaded two-core machine.
  it('fills password and confirmation with a valid password and reveals both', { timeout: 20_000 }, async () => {
    renderPage(<Harness />, { locale: 'en' });
    const input = (await screen.findByLabelText('Password')) as HTMLInputElement;
    expect(input.type).toBe('password');
    for (let i = 0; i < 20; i++) {
      fireEvent.click(screen.getByRole('button', { name: /generate/i }));
      await waitFor(() => expect(input.value).not.toBe(''));
      const value = input.value;
      expect(value.length).toBeGreaterThanOrEqual(8);
      expect(value.length).toBeLessThanOrEqual(12);
      expect(isValidPassword(value)).toBe(true);
      expect((screen.getByLabelText('Confirm') as HTMLInputElement).value).toBe(value);
    }
    expect(input.type).toBe('text');
    expect((screen.getByLabelText('Confirm') as HTMLInputElement).type).toBe('text');
  });

  it('flags a confirmation that differs from the password', async () => {
    renderPage(<Harness />, { locale: 'en' });
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'Secret123' } });
    const confirm = screen.getByLabelText('Confirm');
    fireEvent.change(confirm, { target: { value: 'Secret124' } });
    fireEvent.blur(confirm);
    expect(await screen.findByText(/passwords do not match/i)).toBeTruthy();
  });
});
