import { useEffect } from 'react';

const PRODUCT = 'LeadRelay';

/** The tab's title while the page is open ("Title — LeadRelay"); the product's title again after. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    document.title = `${title} — ${PRODUCT}`;
    return () => {
      document.title = PRODUCT;
    };
  }, [title]);
}
