import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './TagsDialog.stories';
import { savedTags } from './TagsDialog.stories';

const { Single, Multi, PerDepartment } = composeStories(stories);
const dialog = () => screen.getByRole('dialog');
const save = (user: ReturnType<typeof userEvent.setup>) => user.click(within(dialog()).getByRole('button', { name: 'Salvar' }));

beforeEach(() => {
  savedTags().length = 0;
});

describe('TagsDialog (seed 001 §5 "Tags")', () => {
  it('picks one tag without multiTags, never offers inactive ones, and searches case-insensitively', async () => {
    const user = userEvent.setup();
    render(<Single />);
    expect(within(dialog()).queryByText('Antiga')).toBeNull();
    await user.click(within(dialog()).getByRole('radio', { name: 'Urgente' }));
    await user.click(within(dialog()).getByRole('radio', { name: 'Venda' }));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Buscar' }), 'GAR');
    expect(within(dialog()).queryByText('Urgente')).toBeNull();
    expect(within(dialog()).getByText('Garantia')).toBeTruthy();
    await save(user);
    await waitFor(() => expect(savedTags()).toEqual([['venda']]));
  });

  it('keeps several with multiTags, starting from the chat tags', async () => {
    const user = userEvent.setup();
    render(<Multi />);
    expect((within(dialog()).getByRole('checkbox', { name: 'Urgente' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Venda' }));
    await save(user);
    await waitFor(() => expect(savedTags()).toEqual([['urgente', 'venda']]));
  });

  it("with tagsPerDepto offers only the chat department's tags and global ones", () => {
    render(<PerDepartment />);
    expect(within(dialog()).getByText('Venda')).toBeTruthy();
    expect(within(dialog()).getByText('Urgente')).toBeTruthy();
    expect(within(dialog()).queryByText('Garantia')).toBeNull();
  });
});
