import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { messages } from '@atendimento/schemas';

/**
 * /novidades (seed 000 §2 "News"): three blocks — fixed chat messages, emojis, pasting
 * attachments. A block shows its video when the deployment provides one (`videos[i]`).
 */
export function NewsPage({ videos = [] }: { videos?: (string | null)[] }) {
  return (
    <Grid container spacing={2}>
      {messages.shell.news.map((block, index) => (
        <Grid key={block.title} size={{ xs: 12, md: 4 }}>
          <Card sx={{ height: '100%' }}>
            {videos[index] && <video src={videos[index] ?? undefined} controls style={{ width: '100%', display: 'block' }} />}
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {block.title}
              </Typography>
              <Typography color="text.secondary">{block.text}</Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
