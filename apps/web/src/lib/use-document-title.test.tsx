import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDocumentTitle, useRouteDocumentTitle } from './use-document-title';

function Route({ title, page }: { title: string; page?: string }) {
  useRouteDocumentTitle(title);
  return page ? <Page title={page} /> : null;
}

function Page({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

describe('the document title', () => {
  it("shows the route's title in the page's language, then the page's own while it is open", () => {
    const view = render(<Route title="Інтеграції" />);
    expect(document.title).toBe('Інтеграції — LeadRelay');
    // A page mounted under the route (its effects run first) still wins over the route's title.
    view.rerender(<Route title="Новини" page="Нова інтеграція з Uspacy" />);
    expect(document.title).toBe('Нова інтеграція з Uspacy — LeadRelay');
    view.rerender(<Route title="Новини" />);
    expect(document.title).toBe('Новини — LeadRelay');
    view.unmount();
  });
});
