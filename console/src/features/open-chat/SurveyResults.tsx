import { Box, Typography } from '@mui/material';
import { maySeeResearch, messages as seedTexts, type ResearchMethod } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { formatDateTime } from '../../ui/format';

/**
 * The answers of a chat's NPS / CSAT surveys in its history ('Observação NPS/CSAT', seed 001 §6
 * "Admin only: seeing NPS/CSAT"; user claims showNPS / showCSAT): score, the customer's comment
 * and when they answered. Nothing for users who may not see them.
 */
export function SurveyResults({ room }: { room: Pick<Room, 'nps' | 'csat'> }) {
  const { user } = useConsole();
  const rows = (['nps', 'csat'] as ResearchMethod[])
    .map((method) => ({ method, answer: room[method] }))
    .filter((r) => r.answer && maySeeResearch(user, r.method));
  if (rows.length === 0) return null;
  return (
    <Box data-survey-results sx={{ mt: 0.5, px: 1, py: 0.5, bgcolor: '#f5f5f5', borderRadius: 1 }}>
      <Typography variant="caption" fontWeight={600} component="div">{seedTexts.chat.npsObservation}</Typography>
      {rows.map(({ method, answer }) => (
        <Typography key={method} variant="caption" component="div" data-survey={method}>
          {`${method === 'nps' ? seedTexts.survey.nps : seedTexts.survey.csat}: ${answer!.value}`}
          {answer!.reason ? ` — ${answer!.reason}` : ''}
          {answer!.answerdAt ? ` (${seedTexts.survey.answeredAt.replace('{date}', formatDateTime(answer!.answerdAt))})` : ''}
        </Typography>
      ))}
    </Box>
  );
}
