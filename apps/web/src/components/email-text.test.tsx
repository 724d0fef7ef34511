import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './email-text';

describe('EmailText', () => {
  it('offers line breaks only before the @ and the dots of the domain', () => {
    const { container } = render(<EmailText value="anna.kovalenko@mail.example.com" />);
    const span = container.querySelector('.lr-email')!;
    expect(span.textContent).toBe('anna.kovalenko@mail.example.com');
    expect(span.querySelectorAll('wbr')).toHaveLength(3);
    // The name keeps its own dot unbroken: the first break is at the @.
    expect(span.innerHTML.indexOf('<wbr>')).toBe('anna.kovalenko'.length);
  });

  it('shows a login that is not an address as it is', () => {
    const { container } = render(<EmailText value="operator" />);
    expect(container.querySelector('.lr-email')!.innerHTML).toBe('operator');
  });
});
