/**
 * A tab opened during the click (so no pop-up blocker stops it) and sent to a URL once the server
 * has answered; when the browser refused the tab, the URL opens in this one.
 */
export function reserveTab() {
  const tab = window.open('', '_blank');
  return {
    go(url: string) {
      if (tab && !tab.closed) {
        tab.opener = null;
        tab.location.href = url;
      } else window.location.assign(url);
    },
    close() {
      tab?.close();
    },
  };
}
