import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './SurveyResults.stories';

const { Admin, PlainAgent, ShowNpsOnly } = composeStories(stories);

describe("SurveyResults ('Observação NPS/CSAT')", () => {
  it("shows an admin the scores as chips; a click opens 'Observação NPS/CSAT' with the comment and the answer date", async () => {
    const { container } = render(<Admin />);
    expect(container.querySelector('[data-survey="nps"]')!.textContent).toBe('NPS: 9');
    expect(container.querySelector('[data-survey="csat"]')!.textContent).toBe('CSAT: 4');
    fireEvent.click(screen.getByRole('button', { name: 'NPS: 9' }));
    const dialog = await screen.findByRole('dialog', { name: messages.chat.npsObservation });
    expect(within(dialog).getByText('ótimo atendimento')).toBeTruthy();
    expect(within(dialog).getAllByText(/^Respondida em/).length).toBe(2);
    expect(within(dialog).getByText('Sem comentário do cliente.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('hides them from a plain agent', () => {
    const { container } = render(<PlainAgent />);
    expect(container.querySelector('[data-survey-results]')).toBeNull();
  });

  it('showNPS reveals NPS, not CSAT', () => {
    const { container } = render(<ShowNpsOnly />);
    expect(container.querySelector('[data-survey="nps"]')).not.toBeNull();
    expect(container.querySelector('[data-survey="csat"]')).toBeNull();
  });
});
