/** Saves a blob under `fileName` through a temporary link (the browser's download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a text as a file; CSV by default, with a BOM so spreadsheet programs read UTF-8 accents right. */
export function saveText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob(type.startsWith('text/csv') ? ['\ufeff', text] : [text], { type }), fileName);
}
