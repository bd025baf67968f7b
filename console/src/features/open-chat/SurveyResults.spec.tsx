import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './SurveyResults.stories';

const { Admin, PlainAgent, ShowNpsOnly } = composeStories(stories);

describe("SurveyResults ('Observação NPS/CSAT')", () => {
  it('shows an admin the scores, the comment and the answer date', () => {
    const { container } = render(<Admin />);
    expect(screen.getByText(messages.chat.npsObservation)).toBeTruthy();
    expect(container.querySelector('[data-survey="nps"]')!.textContent).toContain('NPS: 9 — ótimo atendimento (Respondida em');
    expect(container.querySelector('[data-survey="csat"]')!.textContent).toContain('CSAT: 4');
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
