import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './CampaignPagination.stories';

const { Default } = composeStories(stories);

describe('CampaignPagination', () => {
  it("shows 'x-y de n', pages forward, and a new page size goes back to the first page", async () => {
    const user = userEvent.setup();
    render(<Default />);
    expect(screen.getByText('1-10 de 37')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /next page|próxima/i }));
    expect(screen.getByText('11-20 de 37')).toBeTruthy();
    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: '20' }));
    expect(screen.getByTestId('state').textContent).toBe('page=0 perPage=20');
    expect(screen.getByText('1-20 de 37')).toBeTruthy();
  });
});
