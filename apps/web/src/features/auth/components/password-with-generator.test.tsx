import { isValidPassword } from '@leadrelay/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../../test/render';
import { PasswordWithGenerator } from './password-with-generator';

function Harness() {
  const [form] = Form.useForm();
  return (
    <Form form={form}>
      <PasswordWithGenerator form={form} label="Password" rules={[]} />
      <Form.Item name="passwordConfirm">
        <input aria-label="Confirm" />
      </Form.Item>
    </Form>
  );
}

describe('password generator button', () => {
  it('fills password and confirmation with a valid password and reveals it', async () => {
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
  });
});
