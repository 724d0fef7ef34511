// Saves a file fetched with the session (fetch → blob → object URL): a plain link cannot carry
// the bearer token the API asks for.
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the URL once click() returns; a moment later it is safe to let it go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
