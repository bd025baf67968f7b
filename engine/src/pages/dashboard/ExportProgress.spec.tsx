import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './ExportProgress.stories';

const { Running, Sent, Failed, RunningThenSent } = composeStories(stories);

describe('ExportProgress', () => {
  it('shows the rows written so far while the server works', async () => {
    render(<Running />);
    expect(await screen.findByText(/^Gerando o arquivo de exportação… 120 atendimento\(s\) até agora/)).toBeTruthy();
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });

  it('says where the file went, or that it failed', async () => {
    const sent = render(<Sent />);
    expect(await screen.findByText('Arquivo de exportação enviado para admin@exemplo.com.br (250 atendimento(s)).')).toBeTruthy();
    sent.unmount();
    render(<Failed />);
    expect(await screen.findByText('Não foi possível gerar o arquivo de exportação. Tente novamente.')).toBeTruthy();
  });

  it('asks again until the job ends, then stops asking', async () => {
    render(<RunningThenSent />);
    expect(await screen.findByText(/120 atendimento/)).toBeTruthy();
    expect(await screen.findByText(/enviado para admin@exemplo.com.br \(250/, {}, { timeout: 4000 })).toBeTruthy();
    const asked = recordedCalls().filter((c) => c.path === '/api/dashboard/export/exp-1').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(recordedCalls().filter((c) => c.path === '/api/dashboard/export/exp-1').length).toBe(asked);
  });
});
