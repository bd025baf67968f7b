import { useCallback } from 'react';
import { hasTenantClaim, messages } from '@atendimento/schemas';
import { useConsole } from '../ConsoleContext';

/** Copies a text and toasts 'Copiado' / 'Falha ao copiar' (unless tenant claim disableCopyToast). */
export function useCopy(): (text: string) => Promise<void> {
  const { notify, appConfig } = useConsole();
  return useCallback(
    async (text: string) => {
      const quiet = hasTenantClaim(appConfig, 'disableCopyToast');
      try {
        await navigator.clipboard.writeText(text);
        if (!quiet) notify(messages.table.copied, 'success');
      } catch {
        notify(messages.table.copyFailed, 'error');
      }
    },
    [notify, appConfig],
  );
}
