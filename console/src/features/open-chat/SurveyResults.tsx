import { useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { maySeeResearch, messages as seedTexts, type ResearchMethod } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { formatDateTime } from '../../ui/format';
import { texts } from '../../ui/texts';

const label = (method: ResearchMethod, value: number) => `${method === 'nps' ? seedTexts.survey.nps : seedTexts.survey.csat}: ${value}`;

/**
 * The NPS / CSAT values of a chat's history header (seed 001 §2 "Chat history", §6 "Admin only:
 * seeing NPS/CSAT"; user claims showNPS / showCSAT): one chip per answered survey; a click opens
 * the info dialog 'Observação NPS/CSAT' with the customer's comment and when they answered.
 * Nothing for users who may not see them (the server does not send them either).
 */
export function SurveyResults({ room }: { room: Pick<Room, 'nps' | 'csat'> }) {
  const { user } = useConsole();
  const [open, setOpen] = useState(false);
  const rows = (['nps', 'csat'] as ResearchMethod[])
    .map((method) => ({ method, answer: room[method] }))
    .filter((r) => r.answer && maySeeResearch(user, r.method));
  if (rows.length === 0) return null;
  return (
    <Box data-survey-results sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
      {rows.map(({ method, answer }) => (
        <Chip key={method} size="small" color="secondary" data-survey={method} label={label(method, answer!.value)} aria-haspopup="dialog" onClick={() => setOpen(true)} />
      ))}
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="survey-observation-title">
        <DialogTitle id="survey-observation-title">{seedTexts.chat.npsObservation}</DialogTitle>
        <DialogContent>
          {rows.map(({ method, answer }) => (
            <Box key={method} data-survey-detail={method} sx={{ mb: 1 }}>
              <Typography variant="subtitle2">{label(method, answer!.value)}</Typography>
              <Typography variant="body2">{answer!.reason || texts.survey.noComment}</Typography>
              {answer!.answerdAt && <Typography variant="caption" color="text.secondary">{seedTexts.survey.answeredAt.replace('{date}', formatDateTime(answer!.answerdAt))}</Typography>}
            </Box>
          ))}
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(false)}>{texts.survey.close}</Button></DialogActions>
      </Dialog>
    </Box>
  );
}
