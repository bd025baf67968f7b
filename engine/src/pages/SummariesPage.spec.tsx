import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './SummariesPage.stories';
import { recordedCalls } from '../stories/fakeApi';

const { Default, SendFails } = composeStories(stories);
const text = messages.summary;

async function find(code: string) {
  fireEvent.change(screen.getByTestId('summary-code'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: text.search }));
}

describe('SummariesPage', () => {
  it("finds a chat by its number, shows 'chat ativo' and e-mails the summary to the user", async () => {
    render(<Default />);
    await find('42');
    expect((await screen.findByTestId('summary-chat')).textContent).toContain('Maria Cliente');
    expect(screen.getByText(text.activeChat)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: text.generate }));
    expect(await screen.findByText(text.sent)).toBeTruthy();
    expect(recordedCalls().find((c) => c.path === '/api/rooms/sumarize/r-42')?.body).toEqual({ targetEmail: expect.any(String) });
  });

  it('says when no chat has that number, and when the summary could not be sent', async () => {
    render(<SendFails />);
    await find('7');
    expect(await screen.findByText(text.notFound)).toBeTruthy();
    await find('42');
    fireEvent.click(await screen.findByRole('button', { name: text.generate }));
    expect(await screen.findByText(text.failed)).toBeTruthy();
  });
});
