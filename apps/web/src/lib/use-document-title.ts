import { useEffect } from 'react';

const PRODUCT = 'LeadRelay';

// The tab's title: "Title — LeadRelay" in the page's language (issue 17 part 7). Every route has
// one from its table entry (useRouteDocumentTitle in the locale root); a page that knows better
// (a news post's headline) sets its own with useDocumentTitle, which wins while the page is open.
const pageTitles: string[] = [];
let routeTitle = '';

function apply(): void {
  const title = pageTitles.at(-1) || routeTitle;
  document.title = title ? `${title} — ${PRODUCT}` : PRODUCT;
}

/** A page's own title while it is open; the route's title again after. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    pageTitles.push(title);
    apply();
    return () => {
      pageTitles.splice(pageTitles.lastIndexOf(title), 1);
      apply();
    };
  }, [title]);
}

/** The matched route's title (app/locale-root.tsx), shown when no page sets its own. */
export function useRouteDocumentTitle(title: string): void {
  useEffect(() => {
    routeTitle = title;
    apply();
  }, [title]);
}
