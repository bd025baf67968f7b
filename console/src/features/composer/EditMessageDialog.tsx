import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { MESSAGE_MAX_LENGTH, messages as seedTexts } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { texts } from '../../ui/texts';

/** 'Editar mensagem' (seed 001 §4 "Editing"): confirm is disabled when the text is empty or unchanged. */
export function EditMessageDialog(props: { message: ChatMessage | null; onCancel: () => void; onSave: (text: string) => void }) {
  const original = props.message?.text ?? '';
  const [text, setText] = useState(original);
  useEffect(() => setText(original), [original, props.message?.id]);
  const unchanged = text.trim() === original.trim();
  return (
    <Dialog open={Boolean(props.message)} onClose={props.onCancel} fullWidth maxWidth="sm">
      <DialogTitle>{seedTexts.chat.editMessage}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{
            htmlInput: { maxLength: MESSAGE_MAX_LENGTH, 'aria-label': seedTexts.chat.editMessage }
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{texts.composer.cancel}</Button>
        <Button variant="contained" disabled={!text.trim() || unchanged} onClick={() => props.onSave(text.trim())}>{texts.composer.save}</Button>
      </DialogActions>
    </Dialog>
  );
}
